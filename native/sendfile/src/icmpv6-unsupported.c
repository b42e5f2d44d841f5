/*
 * Built where raw ICMPv6 is not used (anything but Linux): the module loads
 * and says so, and the DHCP service sends no Router Advertisements.
 */
#include <node_api.h>

static napi_value open_socket(napi_env env, napi_callback_info info) {
  (void)info;
  napi_throw_error(env, "ENOSYS", "raw ICMPv6 sockets are implemented on Linux only");
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value open_fn, supported;
  napi_create_function(env, "open", NAPI_AUTO_LENGTH, open_socket, NULL, &open_fn);
  napi_get_boolean(env, 0, &supported);
  napi_set_named_property(env, exports, "open", open_fn);
  napi_set_named_property(env, exports, "supported", supported);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
