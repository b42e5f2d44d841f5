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
#define THREAD_STACK_BYTES (256 * 1024)

typedef struct transfer {
  /* First: the thread, its owners and its completion (native-support.h). */
  native_job_t job;
  int out_fd;
  int in_fd;
  int64_t offset;
  int64_t length;
  int64_t idle_ms;
  /* Written by the thread before it queues the completion, read by complete_transfer after the join. */
  int error;
  int64_t sent;
} transfer_t;



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
    if (atomic_load(&t->job.cancelled)) {
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
      error = native_wait_ready(t->out_fd, POLLOUT, &t->job.cancelled, t->idle_ms, last_progress);
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
  /* Queued, never blocking: the queue is unbounded. Fails only while the env is being torn down (see native_job_env_cleanup). */
  native_job_done(&t->job);
  return NULL;
}

/* On the JS thread once the transfer ended: callback(err, sent). */
static void complete_transfer(napi_env env, napi_value callback, native_job_t *job) {
  transfer_t *t = (transfer_t *)job;
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

/* A transfer that could not start: closes its duplicates. */
static void abandon_transfer(native_job_t *job) {
  transfer_t *t = (transfer_t *)job;
  close(t->out_fd);
  close(t->in_fd);
  free(t);
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
  t->offset = offset;
  t->length = length;
  t->idle_ms = idle_ms;
  t->job.complete = complete_transfer;
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
  return native_job_start(env, &t->job, argv[5], "bootwright:sendfile", transfer_main, THREAD_STACK_BYTES, NULL, 0, abandon_transfer);
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
