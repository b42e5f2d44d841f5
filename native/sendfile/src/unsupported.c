/*
 * Built where sendfile(2) is not used (anything but Linux): the module loads
 * and says so, and Bootwright streams HTTP boot files through Node instead.
 */
#include <node_api.h>

static napi_value start_transfer(napi_env env, napi_callback_info info) {
  (void)info;
  napi_throw_error(env, "ENOSYS", "sendfile transfers are implemented on Linux only");
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value start, supported;
  napi_create_function(env, "start", NAPI_AUTO_LENGTH, start_transfer, NULL, &start);
  /* No congestion(): callers check for it and leave sockets as they are. */
  napi_get_boolean(env, 0, &supported);
  napi_set_named_property(env, exports, "start", start);
  napi_set_named_property(env, exports, "supported", supported);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
