/**
 * The machine a run happened on, printed with every table: numbers mean little without it.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, release, totalmem } from 'node:os';

/** CPU, cores, memory, Node and kernel of this machine, and when the run started. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  kernel: string;
  date: string;
}

/** Describes this machine (CPU model from /proc/cpuinfo where there is one). */
export function describeMachine(now = new Date()): MachineInfo {
  let cpuModel = cpus()[0]?.model ?? 'unknown';
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1] !== undefined) cpuModel = match[1].trim();
  } catch {
    // Not Linux: keep what os.cpus() says.
  }
  return {
    cpuModel,
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: `${process.platform} ${release()}`,
    date: now.toISOString(),
  };
}

/** One line, for the top of a table. */
export function machineLine(machine: MachineInfo): string {
  return `${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.kernel}, ${machine.date}`;
}
