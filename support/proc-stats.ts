/**
 * CPU time and memory of a process, read from Linux's /proc: the peer is measured from outside, so the
 * measurement costs the peer nothing and works the same for every peer.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (`getconf CLK_TCK`, almost always 100). */
export function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

/** User + system CPU seconds used so far by every thread of `pid`. */
export function cpuSeconds(pid: number, ticksPerSecond: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / ticksPerSecond;
}

/** A `VmXxx:` line of /proc/<pid>/status, in bytes (0 when absent). */
export function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] === undefined ? 0 : Number(match[1]) * 1024;
}

/** Samples a process's resident set every `intervalMillis` and keeps the highest value seen. */
export function samplePeakRss(pid: number, intervalMillis = 100): { stop(): number } {
  let peak = 0;
  const sample = (): void => {
    try {
      peak = Math.max(peak, statusBytes(pid, 'VmRSS'));
    } catch {
      // The process is gone: keep what was seen.
    }
  };
  sample();
  const timer = setInterval(sample, intervalMillis);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
