/**
 * `@vellum/client`: the typed HTTP client of the Vellum API (docs/client.md). It imports no
 * Node-only module and runs in browsers and Node 20; `@vellum/client/node` adds file paths for uploads.
 */
export { VellumClient, createClient, type ClientOptions, type Readiness } from './client.js';
export type {
  SchemaMap,
  UntypedSchemas,
  TypeName,
  RefMark,
  RefTarget,
  ExpandPath,
  Expanded,
  Picked,
  FilterValueOf,
} from './schema-types.js';
export { VellumApiError, type VellumError } from './errors.js';
export type { ClientTokens, TokenKind, TransportOptions, ApiRequest, QueryValue } from './transport.js';
export { Transport } from './transport.js';
export type { ListMeta, ListResult } from './list-result.js';
export {
  AuthApi,
  type LoginOutcome,
  type LoginOptions,
  type MfaMethod,
  type ProfileChanges,
  type SignedInBody,
  type TokenValidation,
  type VerifyMfaInput,
} from './auth.js';
export { MfaApi, type MfaEnabled, type MfaStatus, type SetupCaller, type TotpSetup, type TrustedDevice } from './mfa.js';
export { PasskeysApi, type PasskeyCredential, type PasskeyStatus } from './passkeys.js';
export { IdentityProviderApi, type IdentityProviderCallback, type IdentityProviderStatus } from './identity-provider.js';
export { CLI_CLIENT_ID, OAuthApi, type DeviceAuthorization, type DeviceRequest, type OAuthGrant, type PollOptions } from './oauth.js';
export {
  AuthorizationCodeApi,
  createPkce,
  createState,
  type AuthorizationParams,
  type AuthorizationRequest,
  type Pkce,
} from './authorization-code.js';
export {
  UsersApi,
  type InvitedUser,
  type NewUser,
  type PasswordResetLink,
  type User,
  type Me,
  type Preferences,
  type UserInvitation,
  type UserListQuery,
  type UserUpdate,
} from './users.js';
export { ApiTokensApi, type ApiToken, type NewApiToken } from './api-tokens.js';
export {
  SchedulesApi,
  type Schedule,
  type ScheduleAction,
  type ScheduleInput,
  type ScheduleListQuery,
  type ScheduleStatus,
} from './schedules.js';
export { WebhooksApi, type Webhook, type WebhookDelivery, type WebhookDeliveryStatus, type WebhookInput } from './webhooks.js';
export {
  EventsApi,
  type ChangeEvent,
  type ChangeEventType,
  type ChangeSubject,
  type SubscribeFilter,
  type SubscribeOptions,
  type Subscription,
} from './events.js';
export { PresenceApi, type PresenceHeartbeat, type PresenceUpdate, type PresentUser } from './presence.js';
export { SseParser, type SseMessage } from './sse-parser.js';
export {
  ConfigApi,
  type ContentLocales,
  type FieldDefinition,
  type FieldGroupDefinition,
  type FieldStudioHints,
  type SchemaDefinition,
  type Settings,
  type StructureGroup,
  type StudioConfig,
} from './instance-config.js';
export { typeNames } from './type-names.js';
export { conditionHolds, type FieldCondition } from './field-conditions.js';
export type { AuditQuery, AuditRecord } from './audit.js';
export {
  DocumentsApi,
  type DocumentsMode,
  type DraftWriteOptions,
  type LocaleOption,
  type PreviewGrant,
  type PublishOptions,
  type ReadOptions,
  type WriteOptions,
} from './documents.js';
export {
  DocumentQuery,
  listQueryParams,
  type DocumentListQuery,
  type FieldFilter,
  type FieldPath,
  type FilterOp,
  type FilterValue,
  type OrderOptions,
  type Perspective,
} from './query-builder.js';
export type {
  Document,
  DocumentInput,
  OwnFields,
  DocumentPatch,
  DocumentStatus,
  PublishPlan,
  Revision,
  SystemFields,
  VellumDocument,
} from './document-types.js';
export type {
  ChunkReader,
  Media,
  MediaListQuery,
  MediaOrderField,
  MediaUpdate,
  UploadInput,
  UploadMediaOptions,
  UploadSource,
} from './media.js';
export { imageUrl, srcSet, type ImageTransform } from './image-url.js';
export { multipartBlobBody, multipartUploadBody, type MultipartBlobBody, type MultipartUploadBody } from './multipart-upload-body.js';
