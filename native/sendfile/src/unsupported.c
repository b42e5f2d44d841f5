/*
 * Built for every module of the addon where Linux's calls are not there
 * (anything but Linux): the module loads and says so (`supported: false`),
 * and its caller takes its Node path instead (HTTP boot files and uploads
 * stream through Node, the DHCP service sends no Router Advertisements).
 * binding.gyp names the module's entry point in UNSUPPORTED_METHOD (start,
 * open); it throws ENOSYS. sendfile's congestion() is left out: callers
 * check for it and leave sockets as they are.
 */
#include <node_api.h>

#define STRINGIFY(x) #x
#define TEXT(x) STRINGIFY(x)

static napi_value unsupported(napi_env env, napi_callback_info info) {
  (void)info;
  napi_throw_error(env, "ENOSYS", TEXT(NODE_GYP_MODULE_NAME) " is implemented on Linux only");
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value method, supported;
  napi_create_function(env, TEXT(UNSUPPORTED_METHOD), NAPI_AUTO_LENGTH, unsupported, NULL, &method);
  napi_get_boolean(env, 0, &supported);
  napi_set_named_property(env, exports, TEXT(UNSUPPORTED_METHOD), method);
  napi_set_named_property(env, exports, "supported", supported);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
