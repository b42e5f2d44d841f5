/*
 * Built where Linux's calls are not there (anything but Linux): the module loads
 * and says so, and uploads go through Node's streams.
 */
#include <node_api.h>

static napi_value start_receive(napi_env env, napi_callback_info info) {
  (void)info;
  napi_throw_error(env, "ENOSYS", "receiving into a file natively is implemented on Linux only");
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value start, supported;
  napi_create_function(env, "start", NAPI_AUTO_LENGTH, start_receive, NULL, &start);
  napi_get_boolean(env, 0, &supported);
  napi_set_named_property(env, exports, "start", start);
  napi_set_named_property(env, exports, "supported", supported);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
