/*
 * Receiving an upload's body into a file, for POST /os-images/upload and
 * /files/upload: Node hands every 64 KiB of a request body to JavaScript,
 * which copies it into a write buffer, hashes it and writes it through the
 * libuv pool; on one core that path tops out around 400–600 MB/s. Here a
 * thread moves the bytes with splice(2) (socket → pipe → file, no copy
 * through user space), reads each stretch back from the page cache for
 * SHA-256, and starts the disk's writeback as it goes (sync_file_range), so
 * the fsync before the file is published finds little left to write.
 *
 * start(socketFd, fileFd, fileOffset, length, hashPrefix, idleTimeoutMs, callback) -> { cancel(), received() }
 *
 * Writes the next `length` bytes of the socket at fileOffset. With
 * hashPrefix, the SHA-256 covers the file's bytes before fileOffset too (a
 * resumed upload, or body bytes Node had already read), read back from the
 * file first. callback(err, received, sha256Hex) comes back on the JS thread;
 * err carries an errno name in `code`: ENODATA when the peer closed before
 * `length` bytes, ETIMEDOUT when nothing came for idleTimeoutMs, ECANCELED
 * after cancel(), or the failing call's errno (ENOSPC, EIO...). received()
 * may be read at any time (progress).
 *
 * `supported` is false when the host process has no SHA-256 to call (see
 * find_sha256); start() then throws ENOSYS.
 *
 * Both descriptors are duplicated before start() returns (Node may close and
 * reuse its numbers meanwhile); the thread closes its duplicates. The caller
 * must have stopped Node reading the socket: the thread is then the only
 * reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <dlfcn.h>
#include <node_api.h>

#include "native-support.h"

/*
 * SHA-256 from the OpenSSL (or BoringSSL, in Electron) the host process
 * already carries, found at load time with dlsym rather than through
 * headers and a link: no OpenSSL headers are needed to build, and a host
 * without these symbols gets `supported: false` (uploads then stream through
 * Node) instead of a crash at the first call. The six functions have had
 * these signatures since OpenSSL 1.1.0.
 */
typedef struct digest_context digest_context_t;
typedef struct digest_method digest_method_t;
static struct {
  digest_context_t *(*context_new)(void);
  void (*context_free)(digest_context_t *);
  const digest_method_t *(*sha256)(void);
  int (*init)(digest_context_t *, const digest_method_t *, void *engine);
  int (*update)(digest_context_t *, const void *, size_t);
  int (*final)(digest_context_t *, unsigned char *, unsigned int *);
} sha;

static bool find_sha256(void) {
  sha.context_new = (digest_context_t * (*)(void)) dlsym(RTLD_DEFAULT, "EVP_MD_CTX_new");
  sha.context_free = (void (*)(digest_context_t *))dlsym(RTLD_DEFAULT, "EVP_MD_CTX_free");
  sha.sha256 = (const digest_method_t *(*)(void))dlsym(RTLD_DEFAULT, "EVP_sha256");
  sha.init = (int (*)(digest_context_t *, const digest_method_t *, void *))dlsym(RTLD_DEFAULT, "EVP_DigestInit_ex");
  sha.update = (int (*)(digest_context_t *, const void *, size_t))dlsym(RTLD_DEFAULT, "EVP_DigestUpdate");
  sha.final = (int (*)(digest_context_t *, unsigned char *, unsigned int *))dlsym(RTLD_DEFAULT, "EVP_DigestFinal_ex");
  return sha.context_new && sha.context_free && sha.sha256 && sha.init && sha.update && sha.final;
}

/* The pipe between socket and file; splice moves at most this much per call. */
#define PIPE_BYTES (1024 * 1024)
/* Read back from the page cache for the hash, this much at a time. */
#define HASH_CHUNK_BYTES (1024 * 1024)
/*
 * Writeback: each window is handed to the disk once complete; the window
 * WRITEBACK_LAG windows back is waited for, which bounds the upload's dirty
 * pages to a few windows instead of letting the kernel's dirty limit (20% of
 * memory) pile up and then stall every writer on the machine at once.
 */
#define WRITEBACK_WINDOW_BYTES (8 * 1024 * 1024)
#define WRITEBACK_LAG 4
#define POLL_SLICE_MS 200
#define THREAD_STACK_BYTES (256 * 1024)

typedef struct receive {
  atomic_int refs;
  atomic_bool cancelled;
  atomic_llong received;
  pthread_t thread;
  bool joined;
  bool hooked;
  napi_threadsafe_function tsfn;
  int socket_fd;
  int file_fd;
  int64_t file_offset;
  int64_t length;
  bool hash_prefix;
  int64_t idle_ms;
  /* Written by the thread before it queues the completion. */
  int error;
  const char *failed_call;
  char sha256[65];
} receive_t;

static void receive_release(receive_t *r) {
  if (atomic_fetch_sub(&r->refs, 1) == 1) free(r);
}

/* 0 once the socket has bytes (or an error or hang-up, which the next splice reports), else ECANCELED or ETIMEDOUT. */
static int wait_readable(receive_t *r, int64_t last_progress) {
  for (;;) {
    if (atomic_load(&r->cancelled)) return ECANCELED;
    int slice = POLL_SLICE_MS;
    if (r->idle_ms > 0) {
      int64_t left = r->idle_ms - (native_now_ms() - last_progress);
      if (left <= 0) return ETIMEDOUT;
      if (left < slice) slice = (int)left;
    }
    struct pollfd pfd = { .fd = r->socket_fd, .events = POLLIN, .revents = 0 };
    int ready = poll(&pfd, 1, slice);
    if (ready > 0) return 0;
    if (ready < 0 && errno != EINTR) return errno;
  }
}

/* Hashes the file's bytes [from, to) from the page cache (they were just written, or are a resumed prefix). */
static int hash_file_range(receive_t *r, digest_context_t *ctx, uint8_t *buffer, int64_t from, int64_t to) {
  while (from < to) {
    size_t want = to - from < HASH_CHUNK_BYTES ? (size_t)(to - from) : HASH_CHUNK_BYTES;
    ssize_t n = pread(r->file_fd, buffer, want, (off_t)from);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    /* The file is shorter than what was written to it: someone truncated it under us. */
    if (n == 0) return EIO;
    if (sha.update(ctx, buffer, (size_t)n) != 1) return EIO;
    from += n;
  }
  return 0;
}

/* Starts writeback of complete windows up to `written`, waiting for the one WRITEBACK_LAG back. */
static void write_back(receive_t *r, int64_t *next_window, int64_t written) {
  while (*next_window + WRITEBACK_WINDOW_BYTES <= written) {
    /* Advisory: a file system without it (or an error) only loses the overlap, the fsync still comes. */
    sync_file_range(r->file_fd, *next_window, WRITEBACK_WINDOW_BYTES, SYNC_FILE_RANGE_WRITE);
    int64_t lagging = *next_window - (int64_t)WRITEBACK_LAG * WRITEBACK_WINDOW_BYTES;
    if (lagging >= r->file_offset) {
      sync_file_range(r->file_fd, lagging, WRITEBACK_WINDOW_BYTES,
                      SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
    }
    *next_window += WRITEBACK_WINDOW_BYTES;
  }
}

static void fail(receive_t *r, int error, const char *call) {
  if (r->error == 0) {
    r->error = error;
    r->failed_call = call;
  }
}

static void receive_body(receive_t *r, digest_context_t *ctx, uint8_t *buffer, int pipe_fds[2]) {
  if (r->hash_prefix) {
    int error = hash_file_range(r, ctx, buffer, 0, r->file_offset);
    if (error) {
      fail(r, error, "pread");
      return;
    }
  }
  int64_t remaining = r->length;
  loff_t position = r->file_offset;
  int64_t next_window = r->file_offset;
  int64_t last_progress = native_now_ms();
  while (remaining > 0) {
    if (atomic_load(&r->cancelled)) {
      fail(r, ECANCELED, "splice");
      return;
    }
    size_t want = remaining < PIPE_BYTES ? (size_t)remaining : PIPE_BYTES;
    ssize_t got = splice(r->socket_fd, NULL, pipe_fds[1], NULL, want, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (got == 0) {
      fail(r, ENODATA, "splice");
      return;
    }
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        int error = wait_readable(r, last_progress);
        if (error) {
      fail(r, error, "poll");
      return;
    }
        continue;
      }
      {
      fail(r, errno, "splice");
      return;
    }
    }
    last_progress = native_now_ms();
    int64_t stretch_start = position;
    ssize_t in_pipe = got;
    while (in_pipe > 0) {
      ssize_t moved = splice(pipe_fds[0], NULL, r->file_fd, &position, (size_t)in_pipe, SPLICE_F_MOVE);
      if (moved < 0 && errno == EINTR) continue;
      if (moved <= 0) {
      fail(r, moved < 0 ? errno : EIO, "splice");
      return;
    }
      in_pipe -= moved;
    }
    int error = hash_file_range(r, ctx, buffer, stretch_start, position);
    if (error) {
      fail(r, error, "pread");
      return;
    }
    remaining -= got;
    atomic_store(&r->received, r->length - remaining);
    write_back(r, &next_window, position);
  }
  unsigned char digest[64];
  unsigned int digest_length = 0;
  if (sha.final(ctx, digest, &digest_length) != 1 || digest_length != 32) {
      fail(r, EIO, "sha256");
      return;
    }
  for (unsigned int i = 0; i < digest_length; i++) snprintf(r->sha256 + 2 * i, 3, "%02x", digest[i]);
}

static void *receive_main(void *arg) {
  receive_t *r = arg;
  int pipe_fds[2] = { -1, -1 };
  uint8_t *buffer = malloc(HASH_CHUNK_BYTES);
  digest_context_t *ctx = sha.context_new();
  if (buffer == NULL || ctx == NULL) {
    fail(r, ENOMEM, "malloc");
  } else if (sha.init(ctx, sha.sha256(), NULL) != 1) {
    fail(r, EIO, "sha256");
  } else if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    fail(r, errno, "pipe2");
  } else {
    /* A smaller pipe (pipe-max-size lowered, or no memory for it) only means more calls. */
    fcntl(pipe_fds[1], F_SETPIPE_SZ, PIPE_BYTES);
    receive_body(r, ctx, buffer, pipe_fds);
  }
  if (pipe_fds[0] >= 0) close(pipe_fds[0]);
  if (pipe_fds[1] >= 0) close(pipe_fds[1]);
  if (ctx != NULL) sha.context_free(ctx);
  free(buffer);
  close(r->socket_fd);
  close(r->file_fd);
  napi_call_threadsafe_function(r->tsfn, r, napi_tsfn_nonblocking);
  napi_release_threadsafe_function(r->tsfn, napi_tsfn_release);
  return NULL;
}

static void on_env_cleanup(void *arg);

static void call_js(napi_env env, napi_value callback, void *context, void *data) {
  (void)context;
  receive_t *r = data;
  if (!r->joined) {
    pthread_join(r->thread, NULL);
    r->joined = true;
  }
  if (env != NULL) {
    if (r->hooked) {
      napi_remove_env_cleanup_hook(env, on_env_cleanup, r);
      r->hooked = false;
    }
    napi_value argv[3], undefined;
    napi_get_undefined(env, &undefined);
    if (r->error) {
      argv[0] = native_error(env, r->error, r->failed_call ? r->failed_call : "receive");
      napi_get_null(env, &argv[2]);
    } else {
      napi_get_null(env, &argv[0]);
      napi_create_string_utf8(env, r->sha256, NAPI_AUTO_LENGTH, &argv[2]);
    }
    napi_create_double(env, (double)atomic_load(&r->received), &argv[1]);
    napi_call_function(env, undefined, callback, 3, argv, NULL);
  }
  receive_release(r);
}

static void on_env_cleanup(void *arg) {
  receive_t *r = arg;
  r->hooked = false;
  atomic_store(&r->cancelled, true);
  if (!r->joined) {
    pthread_join(r->thread, NULL);
    r->joined = true;
  }
}

static void on_handle_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  receive_release(data);
}

static receive_t *unwrap_self(napi_env env, napi_callback_info info) {
  napi_value self;
  void *data = NULL;
  napi_get_cb_info(env, info, NULL, NULL, &self, NULL);
  if (napi_unwrap(env, self, &data) != napi_ok || data == NULL) {
    napi_throw_type_error(env, NULL, "must be called on a receive handle");
    return NULL;
  }
  return data;
}

static napi_value cancel_receive(napi_env env, napi_callback_info info) {
  receive_t *r = unwrap_self(env, info);
  if (r != NULL) atomic_store(&r->cancelled, true);
  return NULL;
}

static napi_value received_bytes(napi_env env, napi_callback_info info) {
  receive_t *r = unwrap_self(env, info);
  if (r == NULL) return NULL;
  napi_value value;
  napi_create_double(env, (double)atomic_load(&r->received), &value);
  return value;
}

static napi_value start_receive(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int64_t socket_fd, file_fd, file_offset, length, idle_ms;
  bool hash_prefix = false;
  napi_valuetype callback_type = napi_undefined;
  if (argc == 7) napi_typeof(env, argv[6], &callback_type);
  if (argc != 7 || !native_get_int64(env, argv[0], 0, &socket_fd) || socket_fd > INT32_MAX || !native_get_int64(env, argv[1], 0, &file_fd) ||
      file_fd > INT32_MAX || !native_get_int64(env, argv[2], 0, &file_offset) || !native_get_int64(env, argv[3], 0, &length) ||
      napi_get_value_bool(env, argv[4], &hash_prefix) != napi_ok || !native_get_int64(env, argv[5], 0, &idle_ms) ||
      callback_type != napi_function) {
    napi_throw_type_error(env, NULL,
                          "start(socketFd, fileFd, fileOffset, length, hashPrefix, idleTimeoutMs, callback): non-negative integers, a boolean and a function");
    return NULL;
  }

  if (!sha.context_new) return native_throw_errno(env, ENOSYS, "dlsym");
  receive_t *r = calloc(1, sizeof *r);
  if (r == NULL) return native_throw_errno(env, ENOMEM, "receive");
  atomic_init(&r->refs, 2);
  atomic_init(&r->cancelled, false);
  atomic_init(&r->received, 0);
  r->file_offset = file_offset;
  r->length = length;
  r->hash_prefix = hash_prefix;
  r->idle_ms = idle_ms;
  r->socket_fd = fcntl((int)socket_fd, F_DUPFD_CLOEXEC, 0);
  if (r->socket_fd < 0) {
    int error = errno;
    free(r);
    return native_throw_errno(env, error, "fcntl");
  }
  r->file_fd = fcntl((int)file_fd, F_DUPFD_CLOEXEC, 0);
  if (r->file_fd < 0) {
    int error = errno;
    close(r->socket_fd);
    free(r);
    return native_throw_errno(env, error, "fcntl");
  }

  napi_value name;
  napi_create_string_utf8(env, "bootwright:receive", NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, argv[6], NULL, name, 0, 1, NULL, NULL, NULL, call_js, &r->tsfn) != napi_ok) {
    close(r->socket_fd);
    close(r->file_fd);
    free(r);
    napi_throw_error(env, NULL, "receive: could not create the completion callback");
    return NULL;
  }

  int created = native_start_thread(&r->thread, receive_main, r, THREAD_STACK_BYTES);
  if (created != 0) {
    napi_release_threadsafe_function(r->tsfn, napi_tsfn_abort);
    close(r->socket_fd);
    close(r->file_fd);
    free(r);
    return native_throw_errno(env, created, "pthread_create");
  }
  if (napi_add_env_cleanup_hook(env, on_env_cleanup, r) == napi_ok) r->hooked = true;

  napi_value handle, cancel, received;
  napi_create_object(env, &handle);
  napi_create_function(env, "cancel", NAPI_AUTO_LENGTH, cancel_receive, NULL, &cancel);
  napi_create_function(env, "received", NAPI_AUTO_LENGTH, received_bytes, NULL, &received);
  napi_set_named_property(env, handle, "cancel", cancel);
  napi_set_named_property(env, handle, "received", received);
  if (napi_wrap(env, handle, r, on_handle_finalize, NULL, NULL) != napi_ok) receive_release(r);
  return handle;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value start, supported;
  napi_create_function(env, "start", NAPI_AUTO_LENGTH, start_receive, NULL, &start);
  napi_get_boolean(env, find_sha256(), &supported);
  napi_set_named_property(env, exports, "start", start);
  napi_set_named_property(env, exports, "supported", supported);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
