import { API_PREFIX } from '../../core/http-kit/route-table.js';

/** The runtime URLs of one task (docs/netboot.md): the token is their only credential, so they are shown to operators only. */
export interface TaskUrls {
  /** `{base}/api/v1/netboot/answer/{id}?token={token}`. */
  answer: string;
  /** The cloud-init (nocloud-net) seed directory, with a trailing slash: cloud-init appends user-data, meta-data, vendor-data. */
  seed: string;
  /** Without the state: the answer file appends `/installing`, `/done` or `/failed` (optional `?message=`). */
  callback: string;
}

/** `base` is the HTTP base the machine reached (`http://192.0.2.1:8080`). */
export function taskUrls(base: string, taskId: number, token: string): TaskUrls {
  const api = `${base.replace(/\/+$/, '')}${API_PREFIX}/netboot`;
  const safe = encodeURIComponent(token);
  return {
    answer: `${api}/answer/${taskId}?token=${safe}`,
    seed: `${api}/answer/${taskId}/${safe}/`,
    callback: `${api}/callback/${taskId}/${safe}`,
  };
}
