/** Every item of a /v1 collection of a test server, page by page, read with an API key. */
export async function allV1Items(baseUrl: string, apiKey: string, collection: string): Promise<any[]> {
  const items: any[] = [];
  for (;;) {
    const response = await fetch(`${baseUrl}/v1/${collection}?limit=100&offset=${items.length}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    const body = (await response.json()) as { data: any[]; total: number };
    items.push(...body.data);
    if (items.length >= body.total) return items;
  }
}
