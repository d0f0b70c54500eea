import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';

const BASE = `vendors:
  dashscope: { protocol: dashscope, base_url: https://dashscope.aliyuncs.com/api/v1, auth: { bearer: env:DASHSCOPE_API_KEY } }
  acme: { protocol: openai, base_url: https://api.acme.test/v1, auth: { header: x-acme-key, value: env:ACME_KEY } }
models:
  wan2.2-t2v-plus: { vendor: dashscope }
keys:
  - { name: team, key: env:TEAM_KEY, models: ["*"], native: [acme-jobs] }
routes:
  - method: POST
    path: /dashscope/api/v1/services/aigc/video-generation/video-synthesis
    style: openai
    op: native
    model: body.model
    native: { name: ds-submit, vendor: dashscope, path: /services/aigc/video-generation/video-synthesis, request_headers: [X-DashScope-Async], task_id: output.task_id }
  - method: GET
    path: "/dashscope/api/v1/tasks/{task_id}"
    style: openai
    op: native
    model: task
    native: { name: ds-task, vendor: dashscope, path: "/tasks/{task_id}", task_id: output.task_id }
  - method: GET
    path: "/acme/jobs/{job}"
    style: openai
    op: native
    native: { name: acme-jobs, vendor: acme, path: "/jobs/{job}", response_headers: [x-acme-trace], query: [page] }
`;

async function problemsOf(text: string): Promise<string[]> {
  const { problems } = await compileConfigText(text, 'test.yaml');
  return problems.map(formatProblem);
}

describe('gateway check: vendor-native entries', () => {
  it('accepts native routes and compiles them with lower-case allowlists, the task id path split and the key grants', async () => {
    const { config, problems } = await compileConfigText(BASE);
    expect(problems).toEqual([]);
    const [submit, task, jobs] = config!.routes;
    expect(submit).toMatchObject({ op: 'native', body: 'json', model: { from: 'body', name: 'model' } });
    expect(submit.native).toEqual({
      name: 'ds-submit',
      vendor: 'dashscope',
      path: '/services/aigc/video-generation/video-synthesis',
      requestHeaders: ['x-dashscope-async'],
      responseHeaders: [],
      query: [],
      taskId: ['output', 'task_id'],
    });
    expect(task).toMatchObject({ body: 'none', model: { from: 'task', name: 'task_id' } });
    expect(jobs.native).toMatchObject({ responseHeaders: ['x-acme-trace'], query: ['page'] });
    expect(jobs.model).toEqual({ from: 'none', name: '' });
    expect(config!.keys[0].native).toEqual(['acme-jobs']);
  });

  it.each([
    ['a native route without its block', BASE.replace(/\n    native: \{ name: acme-jobs.*\n/, '\n'), /routes\.2: op: native needs a native block/],
    ['a native block on another op', BASE.replace('op: native\n    model: body.model', 'op: chat\n    model: body.model'), /routes\.0\.native: only a route with op: native/],
    ['an unknown vendor', BASE.replace('vendor: acme,', 'vendor: nobody,'), /routes\.2\.native\.vendor: unknown vendor "nobody"/],
    ['a duplicate entry name', BASE.replace('name: ds-task,', 'name: ds-submit,'), /routes\.1\.native\.name: duplicate native entry "ds-submit"/],
    ['a vendor path parameter the route lacks', BASE.replace('path: "/jobs/{job}"', 'path: "/jobs/{job}/{other}"'), /routes\.2\.native\.path: \{other\} is not a parameter/],
    ['a parameter inside a segment', BASE.replace('"/acme/jobs/{job}"', '"/acme/jobs/x{job}"'), /routes\.2\.path: \{job\} must be a whole path segment/],
    ['a dot segment in the vendor path', BASE.replace('path: "/jobs/{job}"', 'path: "/jobs/../admin/{job}"'), /routes\.2\.native\.path: .* does not match/],
    ['a prefix wildcard in the vendor path', BASE.replace('path: "/jobs/{job}"', 'path: "/jobs/*"'), /routes\.2\.native\.path: .* does not match/],
    ['a credential in the request allowlist', BASE.replace('request_headers: [X-DashScope-Async]', 'request_headers: [Authorization]'), /request_headers\.0: "Authorization" may not be passed to a vendor/],
    ["the vendor's auth header in the request allowlist", BASE.replace('response_headers: [x-acme-trace]', 'request_headers: [x-acme-key]'), /request_headers\.0: "x-acme-key" may not be passed/],
    ['a cookie in the response allowlist', BASE.replace('response_headers: [x-acme-trace]', 'response_headers: [Set-Cookie]'), /response_headers\.0: "Set-Cookie" may not be passed to a client/],
    ['vendor rate limits in the response allowlist', BASE.replace('response_headers: [x-acme-trace]', 'response_headers: [x-ratelimit-remaining-requests]'), /may not be passed to a client/],
    ['a client key query parameter in the query allowlist', BASE.replace('query: [page]', 'query: [page, key]'), /routes\.2\.native\.query\.1: "key" may not be passed to a vendor/],
    ['a model from the path', BASE.replace('model: task', 'model: path.task_id'), /routes\.1\.model: a native route finds its model in body/],
    ['model: task without {task_id}', BASE.replace('"/dashscope/api/v1/tasks/{task_id}"', '"/dashscope/api/v1/tasks/{id}"').replace('"/tasks/{task_id}"', '"/tasks/{id}"'), /routes\.1\.model: model: task needs a \{task_id\}/],
    ['a grant of an unknown entry', BASE.replace('native: [acme-jobs]', 'native: [acme-job]'), /keys\.0\.native\.0: unknown native entry "acme-job"/],
    ['a malformed task id path', BASE.replace('task_id: output.task_id }\n  - method: GET', 'task_id: "output..task_id" }\n  - method: GET'), /routes\.0\.native\.task_id: .* does not match/],
  ])('reports %s', async (_name, text, expected) => {
    const problems = await problemsOf(text);
    expect(problems.join('\n')).toMatch(expected);
  });
});

describe('README: vendor-native entries', () => {
  it('the example of adding another vendor by YAML alone passes gateway check', async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('**Add another vendor'));
    const yaml = section.slice(section.indexOf('```yaml') + 8, section.indexOf('```', section.indexOf('```yaml') + 8));
    const { config, problems } = await compileConfigText(yaml, 'README.md');
    expect(problems).toEqual([]);
    expect(config!.routes.map((route) => route.native?.name)).toEqual(['acme-video-create', 'acme-video-get']);
  });
});
