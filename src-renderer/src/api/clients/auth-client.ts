import type {
  ApiTokenData,
  ChangePasswordRequest,
  CreatedTokenData,
  CreateTokenRequest,
  CreateUserRequest,
  LoginRequest,
  LoginResultData,
  LogoutResultData,
  SessionCheckData,
  UpdateUserRequest,
  UserData,
} from '@contracts/auth';
import type { ApiClient, ListResult } from '../api-client.js';
import { segment, withQuery, type ListParams } from '../query-string.js';

/** The auth area's API (src-main/auth/*-routes.ts): login and session, users, API tokens; typed by its contract. */
export function authClient(client: ApiClient) {
  return {
    session: (): Promise<SessionCheckData> => client.get('/auth/session'),
    login: (body: LoginRequest): Promise<LoginResultData> => client.post('/auth/login', body),
    logout: (): Promise<LogoutResultData> => client.post('/auth/logout'),
    users: {
      list: (params: ListParams = {}): Promise<ListResult<UserData>> => client.list(withQuery('/users', params)),
      create: (body: CreateUserRequest): Promise<UserData> => client.post('/users', body),
      update: (id: number, patch: UpdateUserRequest): Promise<UserData> => client.put(`/users/${segment(id)}`, patch),
      remove: (id: number): Promise<UserData> => client.delete(`/users/${segment(id)}`),
      /** The caller's own password; their other sessions end. */
      changeOwnPassword: (body: ChangePasswordRequest): Promise<UserData> => client.put('/users/me/password', body),
    },
    tokens: {
      list: (params: ListParams = {}): Promise<ListResult<ApiTokenData>> => client.list(withQuery('/tokens', params)),
      create: (body: CreateTokenRequest): Promise<CreatedTokenData> => client.post('/tokens', body),
      revoke: (id: number): Promise<ApiTokenData> => client.delete(`/tokens/${segment(id)}`),
    },
  };
}
