/*
 * What the thread-per-transfer addons (sendfile.c, receive.c) share: system
 * errors shaped like Node's own (code = errno name, errno, syscall), a
 * monotonic clock in ms, checked integer arguments, the wait for a socket,
 * and a transfer's life on its thread (native_job_t). Header-only: each
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
#include <stdlib.h>
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

/*
 * A transfer on a thread of its own, with two owners: the JS handle (its
 * finalizer) and the completion, which the thread queues as its last act and
 * which runs on the JS thread; the memory goes when both let go. Each addon
 * embeds it as the first member of its transfer struct (so a native_job_t *
 * is that struct's address, and free() takes the whole) and supplies
 * `complete`, which calls the JS callback with the results.
 */
typedef struct native_job {
  atomic_int refs;
  atomic_bool cancelled;
  pthread_t thread;
  /* Touched on the JS thread only: whether the thread was joined, whether the env cleanup hook is still registered. */
  bool joined;
  bool hooked;
  napi_threadsafe_function tsfn;
  /* On the JS thread after the thread ended, while the env is alive: calls `callback` with the results. */
  void (*complete)(napi_env env, napi_value callback, struct native_job *job);
} native_job_t;

/* A method of the JS handle besides cancel(); it finds its job with native_job_of. */
typedef struct native_method {
  const char *name;
  napi_callback call;
} native_method_t;

static inline void native_job_release(native_job_t *job) {
  if (atomic_fetch_sub(&job->refs, 1) == 1) free(job);
}

static inline void native_job_join(native_job_t *job) {
  if (!job->joined) {
    /* The thread queued the completion as its second-last act: the join returns at once. */
    pthread_join(job->thread, NULL);
    job->joined = true;
  }
}

/* The thread's last act: hands the job to the JS thread (native_job_call_js). */
static inline void native_job_done(native_job_t *job) {
  napi_call_threadsafe_function(job->tsfn, job, napi_tsfn_nonblocking);
  napi_release_threadsafe_function(job->tsfn, napi_tsfn_release);
}

/*
 * The env goes away (process exit, worker terminated) while a job runs:
 * stop the thread and wait for it before the threadsafe function is deleted.
 * Registered after the threadsafe function, so it runs before that
 * function's own cleanup (Node runs cleanup hooks in reverse order).
 */
static inline void native_job_env_cleanup(void *arg) {
  native_job_t *job = arg;
  job->hooked = false;
  atomic_store(&job->cancelled, true);
  native_job_join(job);
}

/* The completion on the JS thread; env is NULL when the env is being torn down (the thread was joined by then). */
static inline void native_job_call_js(napi_env env, napi_value callback, void *context, void *data) {
  (void)context;
  native_job_t *job = data;
  native_job_join(job);
  if (env != NULL) {
    if (job->hooked) {
      napi_remove_env_cleanup_hook(env, native_job_env_cleanup, job);
      job->hooked = false;
    }
    job->complete(env, callback, job);
  }
  native_job_release(job);
}

static inline void native_job_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  native_job_release(data);
}

/* The job behind a handle method's `this`; NULL with a TypeError thrown for anything else. */
static inline native_job_t *native_job_of(napi_env env, napi_callback_info info) {
  napi_value self;
  void *data = NULL;
  napi_get_cb_info(env, info, NULL, NULL, &self, NULL);
  if (napi_unwrap(env, self, &data) != napi_ok || data == NULL) {
    napi_throw_type_error(env, NULL, "must be called on a transfer handle");
    return NULL;
  }
  return data;
}

static inline napi_value native_job_cancel(napi_env env, napi_callback_info info) {
  native_job_t *job = native_job_of(env, info);
  if (job != NULL) atomic_store(&job->cancelled, true);
  return NULL;
}

/*
 * Starts `job` (calloc'ed, its transfer fields and `complete` filled in) on a
 * thread running `main(job)`, calling `callback` when it ends. Returns the
 * JS handle: cancel() and `methods`. When the job cannot start, `abandon`
 * gets it back (to close what it holds and free it) and NULL is returned
 * with an exception pending.
 */
static inline napi_value native_job_start(napi_env env, native_job_t *job, napi_value callback, const char *name, void *(*main)(void *),
                                          size_t stack_bytes, const native_method_t *methods, size_t method_count,
                                          void (*abandon)(native_job_t *)) {
  atomic_init(&job->refs, 2);
  atomic_init(&job->cancelled, false);
  napi_value resource;
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &resource);
  if (napi_create_threadsafe_function(env, callback, NULL, resource, 0, 1, NULL, NULL, NULL, native_job_call_js, &job->tsfn) != napi_ok) {
    abandon(job);
    napi_throw_error(env, NULL, "could not create the completion callback");
    return NULL;
  }
  int created = native_start_thread(&job->thread, main, job, stack_bytes);
  if (created != 0) {
    napi_release_threadsafe_function(job->tsfn, napi_tsfn_abort);
    abandon(job);
    return native_throw_errno(env, created, "pthread_create");
  }
  if (napi_add_env_cleanup_hook(env, native_job_env_cleanup, job) == napi_ok) job->hooked = true;

  napi_value handle, method;
  napi_create_object(env, &handle);
  napi_create_function(env, "cancel", NAPI_AUTO_LENGTH, native_job_cancel, NULL, &method);
  napi_set_named_property(env, handle, "cancel", method);
  for (size_t i = 0; i < method_count; i++) {
    napi_create_function(env, methods[i].name, NAPI_AUTO_LENGTH, methods[i].call, NULL, &method);
    napi_set_named_property(env, handle, methods[i].name, method);
  }
  if (napi_wrap(env, handle, job, native_job_finalize, NULL, NULL) != napi_ok) {
    /* No finalizer will run: let go of the handle's share now; cancel() cannot reach the job. */
    native_job_release(job);
  }
  return handle;
}

#endif
