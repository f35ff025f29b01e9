/** Relative to the page (/dashboard/), so the page works behind a proxy that mounts the service elsewhere. */
export const API = '../api/v1';

/** A GET of the API with the key: its status and JSON body (null when it is not JSON). */
export async function getJson(path: string, key: string | null): Promise<{ status: number; body: any }> {
  const res = await fetch(`${API}${path}`, { headers: key ? { 'X-API-Key': key } : {} });
  let body: any = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

/** Every page of a paged list (`pagination.next_offset`), at most `maxPages` of them. */
export async function getAllPages(path: string, key: string | null, maxPages = 10): Promise<{ status: number; body: any; items: any[] }> {
  const items: any[] = [];
  let offset = 0;
  let last: { status: number; body: any } = { status: 0, body: null };
  for (let n = 0; n < maxPages; n++) {
    last = await getJson(`${path}${path.includes('?') ? '&' : '?'}offset=${offset}`, key);
    if (last.status !== 200 || !Array.isArray(last.body?.data)) break;
    items.push(...last.body.data);
    const next = last.body.pagination?.next_offset;
    if (typeof next !== 'number') break;
    offset = next;
  }
  return { ...last, items };
}

/** The error message of an answer that is not a 200, for the page. */
export function errorText(r: { status: number; body: any }): string {
  return r.body?.error?.message ?? `HTTP ${r.status}`;
}
