/** A mebibyte in bytes: the unit the hardening tests size answers, bodies and memory in. */
export const MiB = 1024 * 1024;
