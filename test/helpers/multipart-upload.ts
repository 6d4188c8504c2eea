/**
 * One file as a `multipart/form-data` request body, encoded by the platform's own FormData (as
 * browsers and the CLI send it): the inject options `payload` and `headers` of `POST /media`.
 */
export async function multipartUpload(
  file: Buffer,
  filename: string,
  fields: Record<string, string> = {},
): Promise<{ payload: Buffer; headers: { 'content-type': string } }> {
  const form = new FormData();
  form.append('file', new Blob([file]), filename);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await req.arrayBuffer()), headers: { 'content-type': req.headers.get('content-type') as string } };
}
