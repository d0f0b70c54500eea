/** An HTTP answer read whole: its status, text, JSON (undefined when the text is not JSON) and headers. */
export async function readAnswer(response: Response): Promise<{ status: number; text: string; json: any; headers: Headers }> {
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, headers: response.headers };
}
