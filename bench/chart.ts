/**
 * The README's chart: req/s per workload and peer as an SVG bar chart, built as a string. One panel per
 * workload, each with its own scale, because W3's rates are a small fraction of W1's.
 */
import type { PeerId } from './peer-registry.ts';
import type { CellSummary } from './summary.ts';
import { WORKLOADS } from './workloads.ts';
import type { WorkloadId } from './workloads.ts';

const COLOURS: Partial<Record<PeerId, string>> = {
  P0: '#9e9e9e',
  P1: '#4e79a7',
  P2: '#f28e2b',
  P3: '#b07aa1',
  F1: '#e15759',
  F1H: '#ff9d9a',
  F1J: '#d37295',
  F1C: '#fabfd2',
  M1: '#9d7660',
  P4: '#59a14f',
  P4T: '#edc948',
  P4D: '#76b7b2',
  P4P: '#86bcb6',
  PB: '#8cd17d',
};

const SHORT_NAMES: Partial<Record<PeerId, string>> = {
  P0: 'P0 emulator direct',
  P1: 'P1 pass-through',
  P2: 'P2 naive Apollo',
  P3: 'P3 Apollo + RESTDataSource',
  F1: 'F1 floor (Fastify + Apollo)',
  F1H: 'F1H floor, production heap',
  F1J: 'F1J floor, compiled execution',
  F1C: 'F1C floor, perfect cache',
  M1: 'M1 Mercurius + graphql-jit',
  P4: 'P4 this gateway',
  P4T: 'P4T traced',
  P4D: 'P4D trusted documents',
  P4P: 'P4P private cache',
  PB: 'PB gateway baseline',
};

/** The feature-cost copies of P4 (`P4-log`, …) have no colour of their own. */
const colourOf = (peer: PeerId): string => COLOURS[peer] ?? '#bab0ac';
const nameOf = (peer: PeerId): string => SHORT_NAMES[peer] ?? peer;

const PANEL_WIDTH = 200;
const PANEL_GAP = 16;
const HEADER = 28;
const PLOT_TOP = 56 + HEADER;
const PLOT_HEIGHT = 200;
const MARGIN = 16;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function compact(value: number): string {
  if (value >= 10_000) return `${(value / 1000).toFixed(0)}k`;
  if (value >= 1000) return `${(value / 1000).toFixed(1)}k`;
  return value.toFixed(0);
}

function panel(
  workload: WorkloadId,
  cells: readonly CellSummary[],
  peers: readonly PeerId[],
  x: number,
): string {
  const max = Math.max(1, ...cells.map((c) => c.requestsPerSecond));
  const slot = (PANEL_WIDTH - 20) / Math.max(1, peers.length);
  const barWidth = Math.min(28, slot * 0.7);
  const baseline = PLOT_TOP + PLOT_HEIGHT;
  const parts = [
    `<text x="${x + PANEL_WIDTH / 2}" y="${HEADER + MARGIN + 14}" text-anchor="middle" font-weight="bold">${workload}</text>`,
    `<text x="${x + PANEL_WIDTH / 2}" y="${HEADER + MARGIN + 30}" text-anchor="middle" font-size="11" fill="#555">${escapeXml(WORKLOADS[workload].title)}</text>`,
    `<line x1="${x}" y1="${baseline}" x2="${x + PANEL_WIDTH}" y2="${baseline}" stroke="#333"/>`,
  ];
  peers.forEach((peer, index) => {
    const centre = x + 10 + slot * index + slot / 2;
    parts.push(`<text x="${centre}" y="${baseline + 14}" text-anchor="middle" font-size="11">${peer}</text>`);
    const cell = cells.find((c) => c.peer === peer);
    if (cell === undefined) {
      parts.push(
        `<text x="${centre}" y="${baseline - 4}" text-anchor="middle" font-size="10" fill="#999">n/a</text>`,
      );
      return;
    }
    const height = (cell.requestsPerSecond / max) * (PLOT_HEIGHT - 18);
    const top = baseline - height;
    parts.push(
      `<rect x="${(centre - barWidth / 2).toFixed(1)}" y="${top.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${height.toFixed(1)}" fill="${colourOf(peer)}">` +
        `<title>${workload} ${peer}: ${cell.requestsPerSecond.toFixed(0)} req/s</title></rect>`,
      `<text x="${centre}" y="${(top - 4).toFixed(1)}" text-anchor="middle" font-size="10">${compact(cell.requestsPerSecond)}</text>`,
    );
  });
  return parts.join('\n');
}

/** An SVG bar chart of median req/s, one panel per workload, one bar per peer; `caption` goes below. */
export function renderChart(
  cells: readonly CellSummary[],
  workloads: readonly WorkloadId[],
  peers: readonly PeerId[],
  caption: string,
): string {
  const width = MARGIN * 2 + workloads.length * PANEL_WIDTH + (workloads.length - 1) * PANEL_GAP;
  const legendY = PLOT_TOP + PLOT_HEIGHT + 40;
  const height = legendY + 40;
  const panels = workloads.map((workload, index) =>
    panel(
      workload,
      cells.filter((c) => c.workload === workload),
      peers,
      MARGIN + index * (PANEL_WIDTH + PANEL_GAP),
    ),
  );
  let legendX = MARGIN;
  const legend = peers.map((peer) => {
    const item =
      `<rect x="${legendX}" y="${legendY - 10}" width="12" height="12" fill="${colourOf(peer)}"/>` +
      `<text x="${legendX + 16}" y="${legendY}" font-size="12">${escapeXml(nameOf(peer))}</text>`;
    legendX += 16 + nameOf(peer).length * 7 + 20;
    return item;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    '<title>Requests per second by workload and peer (higher is better)</title>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${MARGIN}" y="${MARGIN + 8}" font-size="14" font-weight="bold">Requests per second, median of the rounds (higher is better; each panel has its own scale)</text>`,
    ...panels,
    ...legend,
    `<text x="${MARGIN}" y="${legendY + 24}" font-size="10" fill="#555">${escapeXml(caption)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}
