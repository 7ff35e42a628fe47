import { request } from 'node:http';
import { EXPORT_COUNT_HEADER, type ExportRequest, exportPath } from '@users-admin/contract';

const REQUEST: ExportRequest = {
  columns: [
    { key: 'name', header: 'Name' },
    { key: 'email', header: 'Email' },
    { key: 'data_source', header: 'Data source' },
    { key: 'status', header: 'Status' },
    { key: 'user_type', header: 'User type' },
    { key: 'last_sign_in', header: 'Last sign-in' },
    { key: 'created', header: 'Created' },
  ],
  values: {
    platform: 'Platform',
    third_party: 'Third party',
    active: 'Active',
    inactive: 'Inactive',
    pending: 'Pending',
    disabled: 'Disabled',
    system_admin: 'System Admin',
    user: 'User',
    never: 'Never',
  },
};

export interface ExportMeasure {
  seconds: number;
  rows: number;
  announced: number;
  megabytes: number;
  /** The most this process's JavaScript heap grew over its size before the export, sampled every 100 ms. */
  heapGrowthMegabytes: number;
}

/**
 * Exports every user of an organisation in name order with every column, through the server in this
 * process, reading the answer as a browser would, and times it to its last byte.
 */
export function measureExport(baseUrl: string, orgId: string, cookie: string): Promise<ExportMeasure> {
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 100);
  const body = JSON.stringify(REQUEST);
  return new Promise<ExportMeasure>((resolve, reject) => {
    const url = `${baseUrl}${exportPath(orgId)}?sort=name`;
    const headers = { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    request(url, { method: 'POST', headers }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`export answered ${response.statusCode}`));
      let lines = 0;
      let bytes = 0;
      let lastReport = started;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        if (performance.now() - lastReport > 5000) {
          lastReport = performance.now();
          console.log(`  exported ${(lines - 1).toLocaleString('en')} rows…`);
        }
      });
      response.on('end', () =>
        resolve({
          seconds: (performance.now() - started) / 1000,
          // The generated names hold no line break: a line is a row, after the header's.
          rows: lines - 1,
          announced: Number(response.headers[EXPORT_COUNT_HEADER]),
          megabytes: bytes / 1e6,
          heapGrowthMegabytes: (heapPeak - heapBefore) / 1e6,
        }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end(body);
  }).finally(() => clearInterval(sampler));
}
