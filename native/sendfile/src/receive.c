/*
 * Receiving an upload's body into a file, for POST /os-images/upload and
 * /files/upload: Node hands every 64 KiB of a request body to JavaScript,
 * which copies it into a write buffer, hashes it and writes it through the
 * libuv pool; on one core that path tops out around 400–600 MB/s. Here a
 * thread reads the socket into 1 MiB blocks, hashes each block while it is
 * still in the CPU's cache, and hands it to a second thread that writes it
 * with O_DIRECT: the disk reads the block from our memory, with no copy into
 * the page cache and no dirty pages left for the fsync before the file is
 * published. Where the file system refuses O_DIRECT (tmpfs, some FUSE
 * mounts), blocks are written through the page cache instead, with writeback
 * started as they go (sync_file_range).
 *
 * Measured on this design's prototype (1 GiB from curl on loopback, server on
 * one core, ext4 on virtio): O_DIRECT 0.93 s, page cache 1.1 s, the earlier
 * splice(2) socket → pipe → file with the hash read back 1.16 s; `cp` + sync
 * of the same file 0.85 s. Smaller blocks lose to per-call costs, larger
 * ones to cache misses in the hash (4 MiB: 0.94–1.04 s, 16 MiB: 1.15 s).
 *
 * start(socketFd, fileFd, fileOffset, length, hashPrefix, idleTimeoutMs, pageCache, callback) -> { cancel(), received() }
 *
 * Writes the next `length` bytes of the socket at fileOffset. With
 * hashPrefix, the SHA-256 covers the file's bytes before fileOffset too (a
 * resumed upload, or body bytes Node had already read), read back from the
 * file first. pageCache true writes through the page cache even where
 * O_DIRECT works. callback(err, received, sha256Hex, direct) comes back on
 * the JS thread; `direct` says whether the blocks went to disk with O_DIRECT. err
 * carries an errno name in `code`: ENODATA when the peer closed before
 * `length` bytes, ETIMEDOUT when nothing came for idleTimeoutMs, ECANCELED
 * after cancel(), or the failing call's errno (ENOSPC, EIO...). Bytes
 * received before such an end are still written, so `received` (which
 * received() gives as progress at any time) counts bytes in the file.
 *
 * `supported` is false when the host process has no SHA-256 to call (see
 * find_sha256); start() then throws ENOSYS.
 *
 * Both descriptors are duplicated before start() returns (Node may close and
 * reuse its numbers meanwhile); the thread closes its duplicates. The caller
 * must have stopped Node reading the socket: the thread is then the only
 * reader. The file's bytes before fileOffset must exist (they are rewritten
 * unchanged when fileOffset is not a multiple of DIRECT_ALIGN).
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
#include <sys/socket.h>
#include <sys/uio.h>
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

/* The unit of receiving, hashing and writing (see the measurements above). */
#define BLOCK_BYTES (1024 * 1024)
/*
 * Blocks between the receiving and the writing thread: the socket is read
 * while the disk writes. The writer takes up to half of them per call: with
 * O_DIRECT each write waits for the disk, and this disk took 1 GiB in
 * 0.93–1.15 s in 1 MiB writes, 0.72–0.81 s in 4 MiB ones (dd oflag=direct).
 */
#define BLOCKS_IN_FLIGHT 8
#define MAX_BLOCKS_PER_WRITE (BLOCKS_IN_FLIGHT / 2)
/*
 * O_DIRECT offsets, lengths and buffers are multiples of this. A page covers
 * the logical block sizes of the disks a laptop or server has (512, 4096); a
 * file system asking for more answers EINVAL, and the writer falls back to
 * the page cache.
 */
#define DIRECT_ALIGN 4096
/*
 * Page-cache writes only: each window is handed to the disk once complete;
 * the window WRITEBACK_LAG windows back is waited for, which bounds the
 * upload's dirty pages to a few windows instead of letting the kernel's dirty
 * limit (20% of memory) pile up and then stall every writer on the machine.
 */
#define WRITEBACK_WINDOW_BYTES (8 * 1024 * 1024)
#define WRITEBACK_LAG 4
#define THREAD_STACK_BYTES (256 * 1024)

typedef struct receive {
  /* First: the thread, its owners and its completion (native-support.h). */
  native_job_t job;
  atomic_llong received;
  int socket_fd;
  int file_fd;
  int64_t file_offset;
  int64_t length;
  bool hash_prefix;
  bool page_cache;
  int64_t idle_ms;
  /* Written by the thread before it queues the completion. */
  int error;
  const char *failed_call;
  bool direct;
  char sha256[65];
} receive_t;

static void fail(receive_t *r, int error, const char *call) {
  if (r->error == 0) {
    r->error = error;
    r->failed_call = call;
  }
}

/* A block handed to the writer: `length` bytes at `offset`, of which the last `fresh` came from the socket. */
typedef struct block {
  uint8_t *data;
  size_t length;
  size_t fresh;
  int64_t offset;
} block_t;

/*
 * The writing thread and its queue, a ring of BLOCKS_IN_FLIGHT blocks: the
 * receiver fills blocks[queued % N] and the writer empties
 * blocks[written % N]. Both counters only grow, under `lock`.
 */
typedef struct writer {
  receive_t *r;
  /* The file opened again with O_DIRECT, or -1: through the page cache on r->file_fd. */
  int direct_fd;
  block_t blocks[BLOCKS_IN_FLIGHT];
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  unsigned queued;
  unsigned written;
  bool closing;
  int error;
  const char *failed_call;
  /* Page-cache writes: the next writeback window to start. */
  int64_t next_window;
} writer_t;

/*
 * A second open file description with O_DIRECT, not fcntl(F_SETFL) on a
 * duplicate: that would turn on O_DIRECT for Node's descriptor too, whose
 * later unaligned writes would then fail.
 */
static int open_direct(int fd) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  return open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
}

static int read_all(int fd, uint8_t *data, size_t length, int64_t offset) {
  while (length > 0) {
    ssize_t n = pread(fd, data, length, (off_t)offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    /* The file is shorter than it was said to be: someone truncated it under us. */
    if (n == 0) return EIO;
    data += n;
    length -= (size_t)n;
    offset += n;
  }
  return 0;
}

/* Page-cache writes: starts writeback of complete windows up to `written`, waiting for the one WRITEBACK_LAG back. */
static void write_back(writer_t *w, int64_t written) {
  int fd = w->r->file_fd;
  while (w->next_window + WRITEBACK_WINDOW_BYTES <= written) {
    /* Advisory: a file system without it (or an error) only loses the overlap, the fsync still comes. */
    sync_file_range(fd, w->next_window, WRITEBACK_WINDOW_BYTES, SYNC_FILE_RANGE_WRITE);
    int64_t lagging = w->next_window - (int64_t)WRITEBACK_LAG * WRITEBACK_WINDOW_BYTES;
    if (lagging >= w->r->file_offset) {
      sync_file_range(fd, lagging, WRITEBACK_WINDOW_BYTES, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
    }
    w->next_window += WRITEBACK_WINDOW_BYTES;
  }
}

/* pwritev until every byte of `iov` is written (the array is consumed). */
static int writev_all(int fd, struct iovec *iov, int count, int64_t offset) {
  while (count > 0) {
    ssize_t n = pwritev(fd, iov, count, (off_t)offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    offset += n;
    while (count > 0 && (size_t)n >= iov->iov_len) {
      n -= (ssize_t)iov->iov_len;
      iov++;
      count--;
    }
    if (count > 0) {
      iov->iov_base = (uint8_t *)iov->iov_base + n;
      iov->iov_len -= (size_t)n;
    }
  }
  return 0;
}

/*
 * Writes `count` consecutive blocks in one call: their aligned part with
 * O_DIRECT when possible, the rest (the upload's last bytes) through the page
 * cache.
 */
static int write_blocks(writer_t *w, const block_t *first, unsigned ring_index, unsigned count) {
  struct iovec iov[MAX_BLOCKS_PER_WRITE];
  size_t total = 0;
  for (unsigned i = 0; i < count; i++) {
    const block_t *b = &w->blocks[(ring_index + i) % BLOCKS_IN_FLIGHT];
    iov[i] = (struct iovec){ .iov_base = b->data, .iov_len = b->length };
    total += b->length;
  }
  const block_t *last = &w->blocks[(ring_index + count - 1) % BLOCKS_IN_FLIGHT];
  if (w->direct_fd >= 0) {
    size_t aligned = total & ~(size_t)(DIRECT_ALIGN - 1);
    size_t tail = total - aligned;
    /* The tail is the end of the last block (only the upload's last block has an unaligned length). */
    iov[count - 1].iov_len -= tail;
    int error = aligned > 0 ? writev_all(w->direct_fd, iov, (int)count, first->offset) : 0;
    if (error == 0) {
      struct iovec rest = { .iov_base = last->data + last->length - tail, .iov_len = tail };
      return writev_all(w->r->file_fd, &rest, tail > 0 ? 1 : 0, first->offset + (int64_t)aligned);
    }
    if (error != EINVAL) return error;
    /* Alignment this file system does not take: the page cache from here on. */
    close(w->direct_fd);
    w->direct_fd = -1;
    w->next_window = first->offset;
    for (unsigned i = 0; i < count; i++) {
      const block_t *b = &w->blocks[(ring_index + i) % BLOCKS_IN_FLIGHT];
      iov[i] = (struct iovec){ .iov_base = b->data, .iov_len = b->length };
    }
  }
  int error = writev_all(w->r->file_fd, iov, (int)count, first->offset);
  if (error == 0) write_back(w, first->offset + (int64_t)total);
  return error;
}

static void *writer_main(void *arg) {
  writer_t *w = arg;
  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (w->written == w->queued && !w->closing) pthread_cond_wait(&w->changed, &w->lock);
    if (w->written == w->queued) break;
    /* Everything queued, up to half the ring: the disk gets larger writes, the receiver keeps blocks to fill. */
    unsigned count = w->queued - w->written;
    if (count > MAX_BLOCKS_PER_WRITE) count = MAX_BLOCKS_PER_WRITE;
    unsigned ring_index = w->written % BLOCKS_IN_FLIGHT;
    const block_t *first = &w->blocks[ring_index];
    bool skip = w->error != 0;
    pthread_mutex_unlock(&w->lock);
    int error = 0;
    if (!skip) {
      error = write_blocks(w, first, ring_index, count);
      if (error == 0) {
        long long fresh = 0;
        for (unsigned i = 0; i < count; i++) fresh += (long long)w->blocks[(ring_index + i) % BLOCKS_IN_FLIGHT].fresh;
        atomic_fetch_add(&w->r->received, fresh);
      }
    }
    pthread_mutex_lock(&w->lock);
    if (error != 0 && w->error == 0) {
      w->error = error;
      w->failed_call = "pwritev";
    }
    w->written += count;
    pthread_cond_broadcast(&w->changed);
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

/* The next block to fill, once the writer has freed one; NULL when the writer failed. */
static block_t *writer_next_block(writer_t *w) {
  pthread_mutex_lock(&w->lock);
  while (w->queued - w->written >= BLOCKS_IN_FLIGHT && w->error == 0) pthread_cond_wait(&w->changed, &w->lock);
  block_t *b = w->error == 0 ? &w->blocks[w->queued % BLOCKS_IN_FLIGHT] : NULL;
  pthread_mutex_unlock(&w->lock);
  return b;
}

static void writer_submit(writer_t *w) {
  pthread_mutex_lock(&w->lock);
  w->queued++;
  pthread_cond_broadcast(&w->changed);
  pthread_mutex_unlock(&w->lock);
}

/* Waits for every submitted block to be written and ends the thread. */
static void writer_close(writer_t *w) {
  pthread_mutex_lock(&w->lock);
  w->closing = true;
  pthread_cond_broadcast(&w->changed);
  pthread_mutex_unlock(&w->lock);
  pthread_join(w->thread, NULL);
}

/* Hashes the file's bytes [0, to): a resumed upload's prefix, or body bytes Node wrote before handing over. */
static int hash_prefix(receive_t *r, digest_context_t *ctx, uint8_t *buffer, int64_t to) {
  for (int64_t from = 0; from < to;) {
    size_t want = to - from < BLOCK_BYTES ? (size_t)(to - from) : BLOCK_BYTES;
    int error = read_all(r->file_fd, buffer, want, from);
    if (error) return error;
    if (sha.update(ctx, buffer, want) != 1) return EIO;
    from += (int64_t)want;
  }
  return 0;
}

/*
 * Fills blocks from the socket and queues them. Blocks start at multiples of
 * DIRECT_ALIGN, so the first one begins with the file's bytes between the
 * aligned offset and fileOffset, read back (not hashed again, not counted).
 * Whatever was received before an error is still queued.
 */
static void receive_blocks(receive_t *r, writer_t *w, digest_context_t *ctx) {
  int64_t remaining = r->length;
  int64_t offset = r->file_offset & ~(int64_t)(DIRECT_ALIGN - 1);
  block_t *b = writer_next_block(w);
  if (b == NULL) return;
  b->offset = offset;
  b->length = (size_t)(r->file_offset - offset);
  b->fresh = 0;
  int error = read_all(r->file_fd, b->data, b->length, offset);
  if (error) {
    fail(r, error, "pread");
    return;
  }
  int64_t last_progress = native_now_ms();
  while (remaining > 0) {
    if (atomic_load(&r->job.cancelled)) {
      fail(r, ECANCELED, "recv");
      break;
    }
    size_t room = BLOCK_BYTES - b->length;
    ssize_t got = recv(r->socket_fd, b->data + b->length, remaining < (int64_t)room ? (size_t)remaining : room, MSG_DONTWAIT);
    if (got == 0) {
      fail(r, ENODATA, "recv");
      break;
    }
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        fail(r, errno, "recv");
        break;
      }
      error = native_wait_ready(r->socket_fd, POLLIN, &r->job.cancelled, r->idle_ms, last_progress);
      if (error) {
        fail(r, error, "poll");
        break;
      }
      continue;
    }
    last_progress = native_now_ms();
    if (sha.update(ctx, b->data + b->length, (size_t)got) != 1) {
      fail(r, EIO, "sha256");
      break;
    }
    b->length += (size_t)got;
    b->fresh += (size_t)got;
    remaining -= got;
    if (b->length == BLOCK_BYTES && remaining > 0) {
      offset += BLOCK_BYTES;
      writer_submit(w);
      b = writer_next_block(w);
      if (b == NULL) return;
      b->offset = offset;
      b->length = 0;
      b->fresh = 0;
    }
  }
  if (b->fresh > 0) writer_submit(w);
}

static void receive_body(receive_t *r, digest_context_t *ctx, writer_t *w) {
  if (r->hash_prefix) {
    int error = hash_prefix(r, ctx, w->blocks[0].data, r->file_offset);
    if (error) {
      fail(r, error, "pread");
      return;
    }
  }
  w->direct_fd = r->page_cache ? -1 : open_direct(r->file_fd);
  w->next_window = r->file_offset;
  int started = native_start_thread(&w->thread, writer_main, w, THREAD_STACK_BYTES);
  if (started != 0) {
    fail(r, started, "pthread_create");
    return;
  }
  receive_blocks(r, w, ctx);
  writer_close(w);
  r->direct = w->direct_fd >= 0;
  /* A write error is the cause: the receiver stopped because of it. */
  if (w->error) {
    r->error = 0;
    fail(r, w->error, w->failed_call);
  }
  if (r->error) return;
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
  writer_t w = { .r = r, .direct_fd = -1 };
  pthread_mutex_init(&w.lock, NULL);
  pthread_cond_init(&w.changed, NULL);
  bool allocated = true;
  for (int i = 0; i < BLOCKS_IN_FLIGHT; i++) {
    w.blocks[i].data = aligned_alloc(DIRECT_ALIGN, BLOCK_BYTES);
    allocated = allocated && w.blocks[i].data != NULL;
  }
  digest_context_t *ctx = sha.context_new();
  if (!allocated || ctx == NULL) {
    fail(r, ENOMEM, "malloc");
  } else if (sha.init(ctx, sha.sha256(), NULL) != 1) {
    fail(r, EIO, "sha256");
  } else {
    receive_body(r, ctx, &w);
  }
  if (w.direct_fd >= 0) close(w.direct_fd);
  if (ctx != NULL) sha.context_free(ctx);
  for (int i = 0; i < BLOCKS_IN_FLIGHT; i++) free(w.blocks[i].data);
  pthread_cond_destroy(&w.changed);
  pthread_mutex_destroy(&w.lock);
  close(r->socket_fd);
  close(r->file_fd);
  native_job_done(&r->job);
  return NULL;
}

/* On the JS thread once the receive ended: callback(err, received, sha256Hex, direct). */
static void complete_receive(napi_env env, napi_value callback, native_job_t *job) {
  receive_t *r = (receive_t *)job;
  napi_value argv[4], undefined;
  napi_get_undefined(env, &undefined);
  if (r->error) {
    argv[0] = native_error(env, r->error, r->failed_call ? r->failed_call : "receive");
    napi_get_null(env, &argv[2]);
  } else {
    napi_get_null(env, &argv[0]);
    napi_create_string_utf8(env, r->sha256, NAPI_AUTO_LENGTH, &argv[2]);
  }
  napi_create_double(env, (double)atomic_load(&r->received), &argv[1]);
  napi_get_boolean(env, r->direct, &argv[3]);
  napi_call_function(env, undefined, callback, 4, argv, NULL);
}

/* A receive that could not start: closes its duplicates. */
static void abandon_receive(native_job_t *job) {
  receive_t *r = (receive_t *)job;
  close(r->socket_fd);
  close(r->file_fd);
  free(r);
}

static napi_value received_bytes(napi_env env, napi_callback_info info) {
  receive_t *r = (receive_t *)native_job_of(env, info);
  if (r == NULL) return NULL;
  napi_value value;
  napi_create_double(env, (double)atomic_load(&r->received), &value);
  return value;
}

static napi_value start_receive(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int64_t socket_fd, file_fd, file_offset, length, idle_ms;
  bool hash_prefix = false, page_cache = false;
  napi_valuetype callback_type = napi_undefined;
  if (argc == 8) napi_typeof(env, argv[7], &callback_type);
  if (argc != 8 || !native_get_int64(env, argv[0], 0, &socket_fd) || socket_fd > INT32_MAX || !native_get_int64(env, argv[1], 0, &file_fd) ||
      file_fd > INT32_MAX || !native_get_int64(env, argv[2], 0, &file_offset) || !native_get_int64(env, argv[3], 0, &length) ||
      napi_get_value_bool(env, argv[4], &hash_prefix) != napi_ok || !native_get_int64(env, argv[5], 0, &idle_ms) ||
      napi_get_value_bool(env, argv[6], &page_cache) != napi_ok || callback_type != napi_function) {
    napi_throw_type_error(env, NULL,
                          "start(socketFd, fileFd, fileOffset, length, hashPrefix, idleTimeoutMs, pageCache, callback): "
                          "non-negative integers, booleans and a function");
    return NULL;
  }

  if (!sha.context_new) return native_throw_errno(env, ENOSYS, "dlsym");
  receive_t *r = calloc(1, sizeof *r);
  if (r == NULL) return native_throw_errno(env, ENOMEM, "receive");
  atomic_init(&r->received, 0);
  r->job.complete = complete_receive;
  r->file_offset = file_offset;
  r->length = length;
  r->hash_prefix = hash_prefix;
  r->idle_ms = idle_ms;
  r->page_cache = page_cache;
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
  static const native_method_t methods[] = { { "received", received_bytes } };
  return native_job_start(env, &r->job, argv[7], "bootwright:receive", receive_main, THREAD_STACK_BYTES, methods, 1, abandon_receive);
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
