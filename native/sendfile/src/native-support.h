/*
 * What the thread-per-transfer addons (sendfile.c, receive.c) share: system
 * errors shaped like Node's own (code = errno name, errno, syscall), a
 * monotonic clock in ms, and checked integer arguments. Header-only: each
 * addon is its own shared object, built on its own.
 */
#ifndef BOOTWRIGHT_NATIVE_SUPPORT_H
#define BOOTWRIGHT_NATIVE_SUPPORT_H

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <node_api.h>

static const struct {
  int number;
  const char *name;
} NATIVE_ERRNO_NAMES[] = {
  { EPIPE, "EPIPE" },         { ECONNRESET, "ECONNRESET" }, { ETIMEDOUT, "ETIMEDOUT" },
  { ECANCELED, "ECANCELED" }, { ENODATA, "ENODATA" },       { EBADF, "EBADF" },
  { EINVAL, "EINVAL" },       { EIO, "EIO" },               { ENOTCONN, "ENOTCONN" },
  { ENOTSOCK, "ENOTSOCK" },   { ENOMEM, "ENOMEM" },         { ENOBUFS, "ENOBUFS" },
  { EOVERFLOW, "EOVERFLOW" }, { ESPIPE, "ESPIPE" },         { EFAULT, "EFAULT" },
  { ENETDOWN, "ENETDOWN" },   { ENETUNREACH, "ENETUNREACH" }, { EHOSTUNREACH, "EHOSTUNREACH" },
  { EMFILE, "EMFILE" },       { ENFILE, "ENFILE" },         { EAGAIN, "EAGAIN" },
  { ECONNABORTED, "ECONNABORTED" }, { ENOSPC, "ENOSPC" },   { EDQUOT, "EDQUOT" },
  { EFBIG, "EFBIG" },
};

static inline const char *native_errno_name(int number) {
  for (size_t i = 0; i < sizeof NATIVE_ERRNO_NAMES / sizeof NATIVE_ERRNO_NAMES[0]; i++) {
    if (NATIVE_ERRNO_NAMES[i].number == number) return NATIVE_ERRNO_NAMES[i].name;
  }
  return "EUNKNOWN";
}

/* Error with code (errno name), errno and syscall, like Node's own system errors. */
static inline napi_value native_error(napi_env env, int number, const char *syscall) {
  char text[160];
  char buffer[128];
  /* GNU strerror_r returns the string to use, which may or may not be buffer. */
  const char *description = strerror_r(number, buffer, sizeof buffer);
  const char *name = native_errno_name(number);
  snprintf(text, sizeof text, "%s: %s %s", name, syscall, description);
  napi_value code, message, error, value;
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code);
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message);
  napi_create_error(env, code, message, &error);
  napi_create_int32(env, number, &value);
  napi_set_named_property(env, error, "errno", value);
  napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &value);
  napi_set_named_property(env, error, "syscall", value);
  return error;
}

static inline napi_value native_throw_errno(napi_env env, int number, const char *syscall) {
  napi_throw(env, native_error(env, number, syscall));
  return NULL;
}

static inline int64_t native_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A JS number that is an integer in [minimum, 2^53 - 1]. */
static inline bool native_get_int64(napi_env env, napi_value value, int64_t minimum, int64_t *out) {
  double number;
  if (napi_get_value_double(env, value, &number) != napi_ok) return false;
  if (number != number || number < (double)minimum || number > 9007199254740991.0 || number != (double)(int64_t)number) return false;
  *out = (int64_t)number;
  return true;
}

/*
 * Starts a transfer's thread with a small stack and every signal blocked (as
 * libuv's own threads): a SIGPIPE for a closed peer becomes EPIPE, never a
 * process kill. Returns pthread_create's result.
 */
static inline int native_start_thread(pthread_t *thread, void *(*main)(void *), void *arg, size_t stack_bytes) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack_bytes);
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  int created = pthread_create(thread, &attr, main, arg);
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
  pthread_attr_destroy(&attr);
  return created;
}

/* How long one poll() waits before a transfer's thread looks at its cancel flag again. */
#define NATIVE_POLL_SLICE_MS 200

/*
 * Waits until `fd` is ready for `events` (POLLIN, POLLOUT). Returns 0 to try
 * the transfer's call again (an error or hang-up on the socket also returns
 * 0: that call reports the real errno), ECANCELED once *cancelled is set,
 * ETIMEDOUT when nothing moved for idle_ms since last_progress (0: no
 * limit), or poll's own errno.
 */
static inline int native_wait_ready(int fd, short events, atomic_bool *cancelled, int64_t idle_ms, int64_t last_progress) {
  for (;;) {
    if (atomic_load(cancelled)) return ECANCELED;
    int slice = NATIVE_POLL_SLICE_MS;
    if (idle_ms > 0) {
      int64_t left = idle_ms - (native_now_ms() - last_progress);
      if (left <= 0) return ETIMEDOUT;
      if (left < slice) slice = (int)left;
    }
    struct pollfd pfd = { .fd = fd, .events = events, .revents = 0 };
    int ready = poll(&pfd, 1, slice);
    if (ready > 0) return 0;
    if (ready < 0 && errno != EINTR) return errno;
  }
}

#endif
