import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request whose answer is read as sent: fetch would undo the compression a test checks. */
export function sendRaw(url: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    request(url, { method: body === undefined ? 'GET' : 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end(body);
  });
}
