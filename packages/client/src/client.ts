import { ApiTokensApi } from './api-tokens.js';
import { WebhooksApi } from './webhooks.js';
import { SchedulesApi } from './schedules.js';
import { EventsApi } from './events.js';
import { PresenceApi } from './presence.js';
import { listAudit, type AuditQuery, type AuditRecord } from './audit.js';
import { AuthApi, type LoginOptions, type LoginOutcome } from './auth.js';
import { AuthorizationCodeApi } from './authorization-code.js';
import type { Document } from './document-types.js';
import type { IsTyped, SchemaMap, TypeName, UntypedSchemas } from './schema-types.js';
import { DocumentsApi } from './documents.js';
import { IdentityProviderApi } from './identity-provider.js';
import { ConfigApi } from './instance-config.js';
import type { ListMeta, ListResult } from './list-result.js';
import type { Media, MediaListQuery, MediaUpdate, UploadInput, UploadMediaOptions, UploadSource } from './media.js';
import { MfaApi } from './mfa.js';
import { multipartBlobBody, multipartUploadBody } from './multipart-upload-body.js';
import { OAuthApi } from './oauth.js';
import { PasskeysApi } from './passkeys.js';
import { Transport, type ClientTokens, type TransportOptions } from './transport.js';
import { UsersApi } from './users.js';

export interface ClientOptions extends Omit<TransportOptions, 'tokens'> {
  /** An access token or API token to start with (no refresh). */
  token?: string;
  /** Tokens to start with, e.g. those `onTokens` persisted last time; they win over `token`. */
  tokens?: ClientTokens;
  /** Opens a file path for `uploadMedia` (set by `@vellum/client/node`). */
  openFile?: (path: string) => Promise<UploadSource>;
}

const enc = encodeURIComponent;

/** A type's document interface in the model, as the documents API takes it. */
type DocumentOf<S, K extends keyof S> = S[K] extends object ? S[K] : Record<string, unknown>;

/**
 * A client typed by a content model (docs/client.md, "Typed by the schema"):
 * `createClient<VellumSchemas>({ baseUrl })`, with the map `vellum types` writes. The same client
 * as `new VellumClient(opts)`, its document calls typed by `S`.
 */
export function createClient<S extends SchemaMap = UntypedSchemas>(opts: ClientOptions): VellumClient<S> {
  return new VellumClient<S>(opts);
}

/**
 * The typed HTTP client for the whole Vellum API (docs/client.md), for the CLI, the studio and
 * users' code. Requests carry the held access token; a 401 refreshes it once and repeats the
 * request, a 403 never does (spec: "Errors").
 */
/** What `GET /ready` reports: `degraded` while a shared part (Redis) is away and the node serves on its own. */
export interface Readiness {
  status: 'ok' | 'degraded';
  checks: { database: 'ok' | 'unavailable'; storage: 'ok' | 'unavailable'; redis?: 'ok' | 'unavailable' };
}

export class VellumClient<S extends SchemaMap = UntypedSchemas> {
  readonly transport: Transport;
  readonly auth: AuthApi;
  readonly mfa: MfaApi;
  readonly passkeys: PasskeysApi;
  readonly identityProvider: IdentityProviderApi;
  readonly oauth: OAuthApi;
  readonly authorizationCode: AuthorizationCodeApi;
  readonly users: UsersApi;
  readonly apiTokens: ApiTokensApi;
  readonly webhooks: WebhooksApi;
  /** Planned publishes and unpublishes across types; a document's own: `documents(type).schedule(id, …)`. */
  readonly schedules: SchedulesApi;
  /** The realtime stream of changes (docs/realtime.md). */
  readonly events: EventsApi;
  readonly presence: PresenceApi;
  readonly config: ConfigApi;
  private readonly openFile?: (path: string) => Promise<UploadSource>;

  constructor(opts: ClientOptions) {
    const { token, tokens, openFile, ...rest } = opts;
    this.transport = new Transport({ ...rest, tokens: tokens ?? (token ? { kind: 'session', accessToken: token } : undefined) });
    this.openFile = openFile;
    this.auth = new AuthApi(this.transport);
    this.mfa = new MfaApi(this.transport);
    this.passkeys = new PasskeysApi(this.transport);
    this.identityProvider = new IdentityProviderApi(this.transport);
    this.oauth = new OAuthApi(this.transport);
    this.authorizationCode = new AuthorizationCodeApi(this.transport);
    this.users = new UsersApi(this.transport);
    this.apiTokens = new ApiTokensApi(this.transport);
    this.webhooks = new WebhooksApi(this.transport);
    this.schedules = new SchedulesApi(this.transport);
    this.events = new EventsApi(this.transport);
    this.presence = new PresenceApi(this.transport);
    this.config = new ConfigApi(this.transport);
  }

  /** The credentials held now. */
  get tokens(): ClientTokens | undefined {
    return this.transport.tokens;
  }

  /** Holds an access or API token with no refresh token (or none); `onTokens` is not called. */
  setToken(token: string | undefined): void {
    this.transport.replaceTokens(token ? { kind: 'session', accessToken: token } : undefined);
  }

  /** Holds these tokens (or none) and tells `onTokens`. */
  setTokens(tokens: ClientTokens | undefined): Promise<void> {
    return this.transport.setTokens(tokens);
  }

  /** Any request: JSON body in, parsed JSON out, the typed error otherwise. */
  request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    return this.transport.json<T>({ method, path, json: body, headers });
  }

  /** `POST /auth/login`: signed in (tokens adopted), or the second factor or setup still to give. */
  login(username: string, password: string, opts?: LoginOptions): Promise<LoginOutcome> {
    return this.auth.login(username, password, opts);
  }

  /**
   * The documents of a type. On a client typed by its model (`createClient<VellumSchemas>()`,
   * docs/client.md "Typed by the schema") the name gives the type: `client.documents('post')` is
   * typed by `Post`, and a name the model lacks does not compile. On an untyped client, name the
   * fields' type yourself: `client.documents<Post>('post')`.
   */
  documents<K extends TypeName<S>>(type: K): DocumentsApi<DocumentOf<S, K>, S>;
  documents<T extends object>(type: IsTyped<S> extends true ? never : string): DocumentsApi<T, S>;
  // The implementation serves both forms; the overloads above are what callers see.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  documents(type: string): DocumentsApi<any, S> {
    return new DocumentsApi(this.transport, type, 'documents');
  }

  /** The same through `/collections`, where every call is permission-checked. */
  collections<K extends TypeName<S>>(type: K): DocumentsApi<DocumentOf<S, K>, S>;
  collections<T extends object>(type: IsTyped<S> extends true ? never : string): DocumentsApi<T, S>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  collections(type: string): DocumentsApi<any, S> {
    return new DocumentsApi(this.transport, type, 'collections');
  }

  /** `GET /audit`, newest first (admins). */
  audit(query: AuditQuery = {}): Promise<ListResult<AuditRecord>> {
    return listAudit(this.transport, query);
  }

  /** Liveness: answers without the database. */
  async health(): Promise<{ status: string }> {
    return (await this.transport.json<{ data: { status: string } }>({ method: 'GET', path: '/health', auth: 'none' })).data;
  }

  /**
   * Readiness (docs/operations.md, "Readiness"): each dependency's state; 503 `SERVICE_UNAVAILABLE`
   * (with `retryAfter`, naming the failed ones in `details`) while the database or the file store cannot answer.
   */
  async ready(): Promise<Readiness> {
    return (await this.transport.json<{ data: Readiness }>({ method: 'GET', path: '/ready', auth: 'none' })).data;
  }

  // The first client's document calls, kept for their callers; `documents(type)` is the typed form.

  /** One page of a list with raw query parameters (`filter[views][gt]`: 10). */
  list(type: string, query: Record<string, string | number> = {}): Promise<{ data: Document[]; meta: ListMeta }> {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    return this.transport.json({ method: 'GET', path: `/documents/${enc(type)}`, query: params });
  }

  get(type: string, id: string, expand?: string): Promise<Document> {
    return this.untyped(type).get(id, { expand }) as Promise<Document>;
  }

  create(type: string, doc: Record<string, unknown>): Promise<Document> {
    return this.untyped(type).create(doc) as Promise<Document>;
  }

  patch(type: string, id: string, patch: Record<string, unknown>, ifMatch?: number): Promise<Document> {
    return this.untyped(type).patch(id, patch, { ifMatch }) as Promise<Document>;
  }

  delete(type: string, id: string, force = false): Promise<void> {
    return this.untyped(type).delete(id, { force });
  }

  private untyped(type: string): DocumentsApi<Record<string, unknown>> {
    return new DocumentsApi(this.transport, type, 'documents');
  }

  // Media (docs/api.md, "Media").

  listMedia(query: MediaListQuery = {}): Promise<ListResult<Media>> {
    return this.transport.json({ method: 'GET', path: '/media', query: { ...query } });
  }

  async getMedia(id: string): Promise<Media> {
    return (await this.transport.json<{ data: Media }>({ method: 'GET', path: `/media/${enc(id)}` })).data;
  }

  async updateMedia(id: string, update: MediaUpdate): Promise<Media> {
    return (await this.transport.json<{ data: Media }>({ method: 'PATCH', path: `/media/${enc(id)}`, json: update })).data;
  }

  async deleteMedia(id: string, force = false): Promise<void> {
    await this.transport.json({ method: 'DELETE', path: `/media/${enc(id)}`, query: { force: force ? 'true' : undefined } });
  }

  /** The record of a file already in the library with these bytes, if any: lets a caller skip uploading it again. */
  async findMediaBySha256(hex: string): Promise<Media | undefined> {
    const { data } = await this.listMedia({ sha256: hex.toLowerCase(), limit: 1 });
    return data[0];
  }

  /**
   * `POST /media` with the file from a Blob (or File), an `UploadSource` or (with
   * `@vellum/client/node`) a path: never read into memory whole. A Blob is sent as a Blob made of
   * [head, file, tail] (browsers refuse a stream body over HTTP/1.1; a Blob goes with its length);
   * a source or path is streamed, with a known length too, so the request is not chunked. The body
   * is built again for the one retry a 401 earns; a token known to expire within 30 s is
   * refreshed before sending, so that retry is rare.
   */
  async uploadMedia(input: UploadInput, opts: UploadMediaOptions = {}): Promise<Media> {
    const source = typeof input === 'string' ? await this.openPath(input) : input;
    let blobLength: number | undefined;
    const { data } = await this.transport.json<{ data: Media }>({
      method: 'POST',
      path: '/media',
      signal: opts.signal,
      stream: async (): Promise<{ body: ReadableStream<Uint8Array> | Blob; headers: Record<string, string> }> => {
        if (source instanceof Blob) {
          // No Content-Length header: fetch takes it from the Blob (browsers forbid setting it).
          const upload = multipartBlobBody(source, opts);
          blobLength = upload.length;
          return { body: upload.body, headers: { 'content-type': upload.contentType } };
        }
        const upload = await multipartUploadBody(source, opts);
        return { body: upload.body, headers: { 'content-type': upload.contentType, 'content-length': String(upload.length) } };
      },
    });
    // fetch tells nothing of a Blob body's progress: the whole of it was sent once the server answered.
    if (blobLength !== undefined) opts.onProgress?.(blobLength, blobLength);
    return data;
  }

  private openPath(path: string): Promise<UploadSource> {
    if (!this.openFile)
      throw new TypeError('Uploading from a file path needs the Node client: import { VellumClient } from "@vellum/client/node"');
    return this.openFile(path);
  }
}
