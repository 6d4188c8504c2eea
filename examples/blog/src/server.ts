import { createServer } from 'node:http';
import { createClient } from '@vellum/client';
import { blog } from './site.js';
import type { VellumSchemas } from './vellum-types.js';

// VELLUM_URL: the API of a started Vellum (`npm run dev` in its project); PORT: this site's.
const apiUrl = process.env.VELLUM_URL ?? 'http://localhost:3000/api';
const port = Number(process.env.PORT ?? 4321);

const vellum = createClient<VellumSchemas>({ baseUrl: apiUrl });
const handle = blog(vellum, apiUrl);
const server = createServer((req, res) => void handle(req, res));
server.listen(port, '127.0.0.1', () => console.log(`The blog is at http://127.0.0.1:${port}/ (posts from ${apiUrl})`));
