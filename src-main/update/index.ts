export { UpdateService, DEFAULT_UPDATE_TIMEOUT_MS, MAX_UPDATE_BYTES, fileNameFor, type UpdateCheck, type UpdateDownload } from './update-service.js';
export { fetchUpdateFeed, parseUpdateFeed, isNewer, MAX_FEED_BYTES, type UpdateFeed } from './update-feed.js';
export { downloadVerified, type DownloadedFile, type DownloadProgress, type VerifiedDownloadOptions } from './verified-download.js';
