/**
 * The gateway's version, from `package.json` (bundled into `dist/main.js` by the build, so the image needs
 * nothing beside it), for `gateway_build_info`.
 */
import packageJson from '../../package.json' with { type: 'json' };

/** `package.json`'s `version`. */
export const PACKAGE_VERSION: string = packageJson.version;
