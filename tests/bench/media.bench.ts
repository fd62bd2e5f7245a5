/**
 * Media library benchmark: one folder with 5,000 file rows (inserted with SQL; no bytes needed), then
 * the time to list one page of 100 over GraphQL (`mediaFiles(folderId, first: 100)`) and over REST
 * (`GET /api/media/files/{folderId}?limit=100`), on the first page and on a deep one.
 */
import { encodeCursor } from '../../server/src/core/pagination.js';
import { measure, startBenchApp, type BenchResult } from './bench-kit.js';

const ROWS = 5000;
const PAGE = 100;

export async function runMediaBench(): Promise<BenchResult[]> {
  const { app, auth, stop } = await startBenchApp();
  try {
    const em = app.orm.em.fork();
    const [{ id: folderId }] = await em.execute<{ id: number }[]>(`insert into media_folder (name) values ('Bench') returning id`);
    await em.execute(
      `insert into media_file (file_name, file_path, friendly_name, folder_id, mime_type, size, width, height, thumbnail_path)
       select 'file-' || n || '.png', 'uploads/bench-' || n || '.png', 'File ' || n, ?, 'image/png', 1000 + n, 400, 300, 'uploads/bench-' || n || '.thumb.webp'
       from generate_series(1, ?) as n`,
      [folderId, ROWS],
    );
    await em.execute('analyze media_file');

    const query = `query($folderId: Int!, $first: Int, $after: String) {
      mediaFiles(folderId: $folderId, first: $first, after: $after) {
        totalCount
        edges { cursor node { id fileName filePath friendlyName folderId mimeType size width height thumbnailPath } }
        pageInfo { hasNextPage endCursor }
      }
    }`;
    const graphql = (after: string | null) => async () => {
      const res = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { folderId, first: PAGE, after } }),
      });
      const body = (await res.json()) as { data?: { mediaFiles: { edges: unknown[] } }; errors?: unknown };
      if (body.data?.mediaFiles.edges.length !== PAGE) throw new Error(`GraphQL answered ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
    };
    const rest = (offset: number) => async () => {
      const res = await fetch(`${app.url}/api/media/files/${folderId}?limit=${PAGE}&offset=${offset}`, { headers: auth });
      const body = (await res.json()) as unknown[];
      if (res.status !== 200 || body.length !== PAGE) throw new Error(`REST answered ${res.status}`);
    };
    const [{ id: deepAfterId }] = await em.execute<{ id: number }[]>(`select id from media_file where folder_id = ? order by id offset ? limit 1`, [folderId, ROWS - PAGE - 1]);

    return [
      await measure('GraphQL mediaFiles(first: 100), first page', graphql(null)),
      await measure('REST GET /api/media/files/{folderId}?limit=100, first page', rest(0)),
      await measure('GraphQL mediaFiles(first: 100, after), last page', graphql(encodeCursor({ id: deepAfterId }))),
      await measure('REST ?limit=100&offset=4900, last page', rest(ROWS - PAGE)),
    ];
  } finally {
    await stop();
  }
}
