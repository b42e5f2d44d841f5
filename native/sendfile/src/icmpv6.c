/*
 * Raw ICMPv6 on one interface, for Router Advertisements: Node's dgram has
 * no raw sockets, and an RA must leave with hop limit 255 (RFC 4861 §6.1.2).
 *
 * open(ifname, onPacket) -> { send(destination, bytes), close() }
 *
 * The socket is bound to the interface (SO_BINDTODEVICE), sends multicast
 * out of it (IPV6_MULTICAST_IF) with hop limit 255, does not loop its own
 * multicast back, joins ff02::2 (all-routers: where Router Solicitations go)
 * and lets only RS and RA through its ICMPv6 filter. Receiving runs on the
 * event loop: a uv_poll on the non-blocking descriptor, so no thread and no
 * polling timer. onPacket(type, sourceAddress, hopLimit, bytes) gets every
 * RS/RA with the hop limit it arrived with (-1 when the kernel did not say);
 * the caller checks it (RFC 4861 §6.1.1 wants 255). The kernel computes the
 * ICMPv6 checksum of what send() hands it (RFC 3542 §3.1).
 *
 * Errors are thrown with `code` set to the errno name (EPERM without
 * CAP_NET_RAW, ENODEV for an unknown interface).
 */
#include <errno.h>
#include <net/if.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <node_api.h>
#include <uv.h>

/* One receive pass reads at most this many packets, so a flood cannot hold the event loop. */
#define MAX_READS_PER_WAKEUP 32
#define PACKET_BYTES 1500

typedef struct icmp_socket {
  napi_env env;
  int fd;
  unsigned int ifindex;
  bool closed;
  bool hooked;
  uv_poll_t poll;
  napi_ref callback;
  napi_async_context async;
} icmp_socket_t;

static void on_env_cleanup(void *data);

static napi_value make_error(napi_env env, int number, const char *what) {
  napi_value code, message, error;
  char text[256];
  snprintf(text, sizeof text, "%s: %s", what, strerror(number));
  const char *name = "EIO";
  switch (number) {
    case EPERM: name = "EPERM"; break;
    case EACCES: name = "EACCES"; break;
    case ENODEV: name = "ENODEV"; break;
    case ENXIO: name = "ENXIO"; break;
    case EADDRNOTAVAIL: name = "EADDRNOTAVAIL"; break;
    case ENETDOWN: name = "ENETDOWN"; break;
    case ENETUNREACH: name = "ENETUNREACH"; break;
    case EAGAIN: name = "EAGAIN"; break;
    case EINVAL: name = "EINVAL"; break;
    case EAFNOSUPPORT: name = "EAFNOSUPPORT"; break;
    case ENOBUFS: name = "ENOBUFS"; break;
    case ENOMEM: name = "ENOMEM"; break;
    case EBADF: name = "EBADF"; break;
    default: break;
  }
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code);
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message);
  napi_create_error(env, code, message, &error);
  return error;
}

static napi_value throw_errno(napi_env env, int number, const char *what) {
  napi_throw(env, make_error(env, number, what));
  return NULL;
}

/* The last step of closing, once libuv let go of the poll handle (the callback may have been running when close() was called). */
static void on_poll_closed(uv_handle_t *handle) {
  icmp_socket_t *s = handle->data;
  napi_delete_reference(s->env, s->callback);
  napi_async_destroy(s->env, s->async);
  close(s->fd);
  free(s);
}

/* Stops receiving; the callback, the descriptor and the memory go once libuv closed the poll handle. */
static void socket_close(icmp_socket_t *s) {
  if (s->closed) return;
  s->closed = true;
  if (s->hooked) napi_remove_env_cleanup_hook(s->env, on_env_cleanup, s);
  s->hooked = false;
  uv_poll_stop(&s->poll);
  uv_close((uv_handle_t *)&s->poll, on_poll_closed);
}

/* The environment goes away (a worker ends) with the socket still open. */
static void on_env_cleanup(void *data) {
  icmp_socket_t *s = data;
  s->hooked = false;
  socket_close(s);
}

static void deliver(icmp_socket_t *s, const uint8_t *bytes, size_t length, const struct sockaddr_in6 *from, int hop_limit) {
  napi_env env = s->env;
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) != napi_ok) return;
  char text[INET6_ADDRSTRLEN];
  if (inet_ntop(AF_INET6, &from->sin6_addr, text, sizeof text) == NULL) text[0] = '\0';
  napi_value argv[4], callback, recv, result;
  void *copy = NULL;
  napi_create_uint32(env, bytes[0], &argv[0]);
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &argv[1]);
  napi_create_int32(env, hop_limit, &argv[2]);
  napi_create_buffer_copy(env, length, bytes, &copy, &argv[3]);
  napi_get_global(env, &recv); /* make_callback wants an object as receiver */
  if (napi_get_reference_value(env, s->callback, &callback) == napi_ok && callback != NULL) {
    /* make_callback: the callback runs as any I/O callback does (microtasks afterwards, async hooks). */
    if (napi_make_callback(env, s->async, recv, callback, 4, argv, &result) == napi_pending_exception) {
      napi_value error;
      napi_get_and_clear_last_exception(env, &error);
      napi_fatal_exception(env, error);
    }
  }
  napi_close_handle_scope(env, scope);
}

static void on_readable(uv_poll_t *handle, int status, int events) {
  icmp_socket_t *s = handle->data;
  if (status < 0 || !(events & UV_READABLE)) return;
  uint8_t buffer[PACKET_BYTES];
  uint8_t control[CMSG_SPACE(sizeof(int))];
  for (int i = 0; i < MAX_READS_PER_WAKEUP && !s->closed; i += 1) {
    struct sockaddr_in6 from;
    struct iovec iov = { .iov_base = buffer, .iov_len = sizeof buffer };
    struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof from, .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control };
    ssize_t got = recvmsg(s->fd, &msg, MSG_DONTWAIT);
    if (got < 0) return; /* EAGAIN: all read; anything else: the next wakeup tries again. */
    if (got < 4 || (msg.msg_flags & MSG_TRUNC)) continue;
    int hop_limit = -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_HOPLIMIT && c->cmsg_len >= CMSG_LEN(sizeof(int))) memcpy(&hop_limit, CMSG_DATA(c), sizeof(int));
    }
    deliver(s, buffer, (size_t)got, &from, hop_limit);
  }
}

static void on_handle_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  socket_close(data);
}

static icmp_socket_t *unwrap_this(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv) {
  napi_value self;
  void *data = NULL;
  napi_get_cb_info(env, info, argc, argv, &self, NULL);
  if (napi_unwrap(env, self, &data) != napi_ok || data == NULL) return NULL;
  return data;
}

static napi_value socket_send(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  icmp_socket_t *s = unwrap_this(env, info, &argc, argv);
  if (s == NULL || s->closed) return throw_errno(env, EBADF, "icmpv6 send");
  char destination[INET6_ADDRSTRLEN + 1];
  size_t length = 0;
  bool is_buffer = false;
  if (argc == 2) napi_is_buffer(env, argv[1], &is_buffer);
  if (argc != 2 || !is_buffer || napi_get_value_string_utf8(env, argv[0], destination, sizeof destination, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "icmpv6 send(destination: string, bytes: Buffer)");
    return NULL;
  }
  struct sockaddr_in6 to;
  memset(&to, 0, sizeof to);
  to.sin6_family = AF_INET6;
  to.sin6_scope_id = s->ifindex;
  if (inet_pton(AF_INET6, destination, &to.sin6_addr) != 1) return throw_errno(env, EINVAL, "icmpv6 send: not an IPv6 address");
  void *bytes = NULL;
  size_t size = 0;
  napi_get_buffer_info(env, argv[1], &bytes, &size);
  if (sendto(s->fd, bytes, size, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof to) < 0) return throw_errno(env, errno, "icmpv6 send");
  return NULL;
}

static napi_value socket_close_js(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  icmp_socket_t *s = unwrap_this(env, info, &argc, NULL);
  if (s != NULL && !s->closed) {
    napi_value self;
    napi_get_cb_info(env, info, NULL, NULL, &self, NULL);
    /* Unwrapped first: the finalizer must not close it a second time. */
    void *ignored;
    napi_remove_wrap(env, self, &ignored);
    socket_close(s);
  }
  return NULL;
}

static int configure(int fd, const char *ifname, unsigned int ifindex, const char **what) {
  int on = 1, off = 0, hops = 255;
  *what = "SO_BINDTODEVICE";
  if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, (socklen_t)strlen(ifname)) < 0) return errno;
  *what = "IPV6_MULTICAST_IF";
  if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &ifindex, sizeof ifindex) < 0) return errno;
  *what = "IPV6_MULTICAST_HOPS";
  if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &hops, sizeof hops) < 0) return errno;
  *what = "IPV6_UNICAST_HOPS";
  if (setsockopt(fd, IPPROTO_IPV6, IPV6_UNICAST_HOPS, &hops, sizeof hops) < 0) return errno;
  *what = "IPV6_MULTICAST_LOOP";
  if (setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &off, sizeof off) < 0) return errno;
  *what = "IPV6_RECVHOPLIMIT";
  if (setsockopt(fd, IPPROTO_IPV6, IPV6_RECVHOPLIMIT, &on, sizeof on) < 0) return errno;
  struct icmp6_filter filter;
  ICMP6_FILTER_SETBLOCKALL(&filter);
  ICMP6_FILTER_SETPASS(ND_ROUTER_SOLICIT, &filter);
  ICMP6_FILTER_SETPASS(ND_ROUTER_ADVERT, &filter);
  *what = "ICMP6_FILTER";
  if (setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &filter, sizeof filter) < 0) return errno;
  struct ipv6_mreq group;
  memset(&group, 0, sizeof group);
  inet_pton(AF_INET6, "ff02::2", &group.ipv6mr_multiaddr);
  group.ipv6mr_interface = ifindex;
  *what = "joining ff02::2";
  if (setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &group, sizeof group) < 0) return errno;
  return 0;
}

static napi_value socket_open(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char ifname[IF_NAMESIZE + 1];
  size_t length = 0;
  napi_valuetype callback_type = napi_undefined;
  if (argc == 2) napi_typeof(env, argv[1], &callback_type);
  if (argc != 2 || callback_type != napi_function || napi_get_value_string_utf8(env, argv[0], ifname, sizeof ifname, &length) != napi_ok ||
      length == 0 || length >= IF_NAMESIZE) {
    napi_throw_type_error(env, NULL, "icmpv6 open(interfaceName: string, onPacket: function)");
    return NULL;
  }
  unsigned int ifindex = if_nametoindex(ifname);
  if (ifindex == 0) return throw_errno(env, ENODEV, ifname);
  int fd = socket(AF_INET6, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_ICMPV6);
  if (fd < 0) return throw_errno(env, errno, "raw ICMPv6 socket");
  const char *what = "";
  int error = configure(fd, ifname, ifindex, &what);
  if (error != 0) {
    close(fd);
    return throw_errno(env, error, what);
  }
  uv_loop_t *loop = NULL;
  icmp_socket_t *s = calloc(1, sizeof *s);
  if (s == NULL || napi_get_uv_event_loop(env, &loop) != napi_ok || loop == NULL) {
    free(s);
    close(fd);
    return throw_errno(env, ENOMEM, "icmpv6 open");
  }
  s->env = env;
  s->fd = fd;
  s->ifindex = ifindex;
  if (uv_poll_init(loop, &s->poll, fd) != 0) {
    free(s);
    close(fd);
    return throw_errno(env, EBADF, "icmpv6 poll");
  }
  s->poll.data = s;
  napi_value resource_name;
  napi_create_string_utf8(env, "bootwright:icmpv6", NAPI_AUTO_LENGTH, &resource_name);
  napi_async_init(env, NULL, resource_name, &s->async);
  napi_create_reference(env, argv[1], 1, &s->callback);
  uv_poll_start(&s->poll, UV_READABLE, on_readable);
  if (napi_add_env_cleanup_hook(env, on_env_cleanup, s) == napi_ok) s->hooked = true;

  napi_value handle, send, close_fn;
  napi_create_object(env, &handle);
  napi_create_function(env, "send", NAPI_AUTO_LENGTH, socket_send, NULL, &send);
  napi_create_function(env, "close", NAPI_AUTO_LENGTH, socket_close_js, NULL, &close_fn);
  napi_set_named_property(env, handle, "send", send);
  napi_set_named_property(env, handle, "close", close_fn);
  if (napi_wrap(env, handle, s, on_handle_finalize, NULL, NULL) != napi_ok) {
    socket_close(s);
    return throw_errno(env, ENOMEM, "icmpv6 open");
  }
  return handle;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value open_fn, supported;
  napi_create_function(env, "open", NAPI_AUTO_LENGTH, socket_open, NULL, &open_fn);
  napi_get_boolean(env, true, &supported);
  napi_set_named_property(env, exports, "open", open_fn);
  napi_set_named_property(env, exports, "supported", supported);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
