/*
 * sendfile(2) for HTTP boot downloads: the kernel copies file pages straight
 * into the socket, where Node would read them into user space and write them
 * out again.
 *
 * start(socketFd, fileFd, offset, length, idleTimeoutMs, callback) -> { cancel() }
 *
 * Each transfer runs on a thread of its own, not on the libuv threadpool: a
 * slow client can keep a transfer waiting for minutes, and four such
 * transfers would otherwise starve every fs call of the application.
 * callback(err, bytesSent) comes back on the JS thread through a
 * threadsafe function; err carries an errno name in `code` (EPIPE,
 * ECONNRESET, ETIMEDOUT, ECANCELED...).
 *
 * Both descriptors are duplicated on the JS thread before start() returns:
 * if Node closes its socket meanwhile (client gone, server stopping), its
 * descriptor number may be reused at once, and the thread must never write
 * into whatever got that number. The thread closes its duplicates.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <time.h>
#include <unistd.h>

#include <node_api.h>

#include "native-support.h"

/* Bytes per sendfile call: a non-blocking socket takes what fits in its buffer anyway; this bounds one call. */
#define CHUNK_BYTES (4 * 1024 * 1024)
/* How long one poll waits for POLLOUT before the cancel flag and the idle deadline are looked at again. */
#define THREAD_STACK_BYTES (256 * 1024)

typedef struct transfer {
  /* Owners: the JS handle (its finalizer) and the completion (call_js); freed when both let go. */
  atomic_int refs;
  atomic_bool cancelled;
  pthread_t thread;
  /* Touched on the JS thread only: whether the thread was joined, whether the env cleanup hook is still registered. */
  bool joined;
  bool hooked;
  napi_env env;
  napi_threadsafe_function tsfn;
  int out_fd;
  int in_fd;
  int64_t offset;
  int64_t length;
  int64_t idle_ms;
  /* Written by the thread before it queues the completion, read by call_js after the join. */
  int error;
  int64_t sent;
} transfer_t;

static void transfer_release(transfer_t *t) {
  if (atomic_fetch_sub(&t->refs, 1) == 1) free(t);
}


static void *transfer_main(void *arg) {
  transfer_t *t = arg;
  off_t offset = (off_t)t->offset;
  int64_t remaining = t->length;
  int64_t last_progress = native_now_ms();
  int error = 0;
  /*
   * Corked, the kernel sends only full segments while the body flows (Node's sockets are TCP_NODELAY,
   * which pushes a short segment at the end of every sendfile call); uncorking at the end pushes the
   * tail. A 100 MB download on loopback took 50 ms without the cork and 35 ms with it (nginx: 37 ms,
   * tcp_nopush). A failed setsockopt only costs that speed, so it is not checked.
   */
  int one = 1, zero = 0;
  setsockopt(t->out_fd, IPPROTO_TCP, TCP_CORK, &one, sizeof one);
  while (remaining > 0) {
    if (atomic_load(&t->cancelled)) {
      error = ECANCELED;
      break;
    }
    size_t want = remaining < CHUNK_BYTES ? (size_t)remaining : CHUNK_BYTES;
    ssize_t n = sendfile(t->out_fd, t->in_fd, &offset, want);
    if (n > 0) {
      remaining -= n;
      t->sent += n;
      last_progress = native_now_ms();
      continue;
    }
    if (n == 0) {
      /* End of file before the end of the range: the file shrank after its size went out in Content-Length. */
      error = ENODATA;
      break;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN) {
      error = native_wait_ready(t->out_fd, POLLOUT, &t->cancelled, t->idle_ms, last_progress);
      if (error) break;
      continue;
    }
    error = errno;
    break;
  }
  setsockopt(t->out_fd, IPPROTO_TCP, TCP_CORK, &zero, sizeof zero);
  t->error = error;
  close(t->out_fd);
  close(t->in_fd);
  /* Queued, never blocking: the queue is unbounded. Fails only while the env is being torn down (see on_env_cleanup). */
  napi_call_threadsafe_function(t->tsfn, t, napi_tsfn_nonblocking);
  napi_release_threadsafe_function(t->tsfn, napi_tsfn_release);
  return NULL;
}

static void on_env_cleanup(void *arg);

/* On the JS thread once the transfer ended; env is NULL when the env is being torn down (the thread was joined by then). */
static void call_js(napi_env env, napi_value callback, void *context, void *data) {
  (void)context;
  transfer_t *t = data;
  if (!t->joined) {
    /* The thread queued this call as its second-last act: the join returns at once. */
    pthread_join(t->thread, NULL);
    t->joined = true;
  }
  if (env != NULL) {
    if (t->hooked) {
      napi_remove_env_cleanup_hook(env, on_env_cleanup, t);
      t->hooked = false;
    }
    napi_value argv[2], undefined;
    napi_get_undefined(env, &undefined);
    if (t->error) {
      argv[0] = native_error(env, t->error, "sendfile");
    } else {
      napi_get_null(env, &argv[0]);
    }
    napi_create_double(env, (double)t->sent, &argv[1]);
    napi_call_function(env, undefined, callback, 2, argv, NULL);
  }
  transfer_release(t);
}

/*
 * The env goes away (process exit, worker terminated) while a transfer runs:
 * stop the thread and wait for it before the threadsafe function is deleted.
 * Registered after the threadsafe function, so it runs before that
 * function's own cleanup (Node runs cleanup hooks in reverse order).
 */
static void on_env_cleanup(void *arg) {
  transfer_t *t = arg;
  t->hooked = false;
  atomic_store(&t->cancelled, true);
  if (!t->joined) {
    pthread_join(t->thread, NULL);
    t->joined = true;
  }
}

static void on_handle_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  transfer_release(data);
}

static napi_value cancel_transfer(napi_env env, napi_callback_info info) {
  napi_value self;
  void *data = NULL;
  napi_get_cb_info(env, info, NULL, NULL, &self, NULL);
  if (napi_unwrap(env, self, &data) != napi_ok || data == NULL) {
    napi_throw_type_error(env, NULL, "cancel() must be called on a transfer handle");
    return NULL;
  }
  transfer_t *t = data;
  atomic_store(&t->cancelled, true);
  return NULL;
}

static napi_value start_transfer(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int64_t socket_fd, file_fd, offset, length, idle_ms;
  napi_valuetype callback_type = napi_undefined;
  if (argc == 6) napi_typeof(env, argv[5], &callback_type);
  if (argc != 6 || !native_get_int64(env, argv[0], 0, &socket_fd) || socket_fd > INT32_MAX || !native_get_int64(env, argv[1], 0, &file_fd) ||
      file_fd > INT32_MAX || !native_get_int64(env, argv[2], 0, &offset) || !native_get_int64(env, argv[3], 0, &length) ||
      !native_get_int64(env, argv[4], 0, &idle_ms) || callback_type != napi_function) {
    napi_throw_type_error(env, NULL,
                          "start(socketFd, fileFd, offset, length, idleTimeoutMs, callback): non-negative integers and a function");
    return NULL;
  }

  transfer_t *t = calloc(1, sizeof *t);
  if (t == NULL) return native_throw_errno(env, ENOMEM, "sendfile");
  atomic_init(&t->refs, 2);
  atomic_init(&t->cancelled, false);
  t->env = env;
  t->offset = offset;
  t->length = length;
  t->idle_ms = idle_ms;
  /* Close-on-exec duplicates: a child process started meanwhile must not hold the connection open. */
  t->out_fd = fcntl((int)socket_fd, F_DUPFD_CLOEXEC, 0);
  if (t->out_fd < 0) {
    int error = errno;
    free(t);
    return native_throw_errno(env, error, "sendfile");
  }
  t->in_fd = fcntl((int)file_fd, F_DUPFD_CLOEXEC, 0);
  if (t->in_fd < 0) {
    int error = errno;
    close(t->out_fd);
    free(t);
    return native_throw_errno(env, error, "sendfile");
  }

  napi_value name;
  napi_create_string_utf8(env, "bootwright:sendfile", NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, argv[5], NULL, name, 0, 1, NULL, NULL, NULL, call_js, &t->tsfn) != napi_ok) {
    close(t->out_fd);
    close(t->in_fd);
    free(t);
    napi_throw_error(env, NULL, "sendfile: could not create the completion callback");
    return NULL;
  }

  int created = native_start_thread(&t->thread, transfer_main, t, THREAD_STACK_BYTES);
  if (created != 0) {
    napi_release_threadsafe_function(t->tsfn, napi_tsfn_abort);
    close(t->out_fd);
    close(t->in_fd);
    free(t);
    return native_throw_errno(env, created, "sendfile");
  }
  if (napi_add_env_cleanup_hook(env, on_env_cleanup, t) == napi_ok) t->hooked = true;

  napi_value handle, cancel;
  napi_create_object(env, &handle);
  napi_create_function(env, "cancel", NAPI_AUTO_LENGTH, cancel_transfer, NULL, &cancel);
  napi_set_named_property(env, handle, "cancel", cancel);
  if (napi_wrap(env, handle, t, on_handle_finalize, NULL, NULL) != napi_ok) {
    /* No finalizer will run: let go of the handle's share now, cancel() cannot reach the transfer. */
    transfer_release(t);
  }
  return handle;
}

/*
 * congestion(socketFd, name) -> the algorithm the socket uses afterwards.
 * Sets TCP_CONGESTION on a connection (an unprivileged process may choose
 * any algorithm in net.ipv4.tcp_allowed_congestion_control); a refusal
 * leaves the socket as it was, and the answer says which one it has.
 */
static napi_value set_congestion(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int64_t socket_fd;
  char name[32];
  size_t name_length = 0;
  if (argc != 2 || !native_get_int64(env, argv[0], 0, &socket_fd) || socket_fd > INT32_MAX ||
      napi_get_value_string_utf8(env, argv[1], name, sizeof name, &name_length) != napi_ok || name_length == 0 || name_length >= sizeof name - 1) {
    napi_throw_type_error(env, NULL, "congestion(socketFd, name): a descriptor and an algorithm's name");
    return NULL;
  }
  setsockopt((int)socket_fd, IPPROTO_TCP, TCP_CONGESTION, name, (socklen_t)name_length);
  char active[32] = { 0 };
  socklen_t active_length = sizeof active - 1;
  if (getsockopt((int)socket_fd, IPPROTO_TCP, TCP_CONGESTION, active, &active_length) != 0) return native_throw_errno(env, errno, "getsockopt");
  napi_value result;
  napi_create_string_utf8(env, active, strnlen(active, sizeof active), &result);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value start, supported, congestion;
  napi_create_function(env, "start", NAPI_AUTO_LENGTH, start_transfer, NULL, &start);
  napi_create_function(env, "congestion", NAPI_AUTO_LENGTH, set_congestion, NULL, &congestion);
  napi_set_named_property(env, exports, "congestion", congestion);
  napi_get_boolean(env, true, &supported);
  napi_set_named_property(env, exports, "start", start);
  napi_set_named_property(env, exports, "supported", supported);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
