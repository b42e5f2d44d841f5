{
  "targets": [
    {
      "target_name": "sendfile",
      "conditions": [
        ["OS=='linux'", {
          "sources": ["src/sendfile.c"],
          "cflags": ["-std=gnu11", "-Wall", "-Wextra"],
          "defines": ["_GNU_SOURCE", "_FILE_OFFSET_BITS=64", "NAPI_VERSION=8"],
          "libraries": ["-lpthread"]
        }, {
          "sources": ["src/unsupported.c"],
          "defines": ["NAPI_VERSION=8", "UNSUPPORTED_METHOD=start"]
        }]
      ]
    },
    {
      "target_name": "icmpv6",
      "conditions": [
        ["OS=='linux'", {
          "sources": ["src/icmpv6.c"],
          "cflags": ["-std=gnu11", "-Wall", "-Wextra"],
          "defines": ["_GNU_SOURCE", "NAPI_VERSION=8"]
        }, {
          "sources": ["src/unsupported.c"],
          "defines": ["NAPI_VERSION=8", "UNSUPPORTED_METHOD=open"]
        }]
      ]
    },
    {
      "target_name": "receive",
      "conditions": [
        ["OS=='linux'", {
          "sources": ["src/receive.c"],
          "cflags": ["-std=gnu11", "-Wall", "-Wextra"],
          "defines": ["_GNU_SOURCE", "_FILE_OFFSET_BITS=64", "NAPI_VERSION=8"],
          "libraries": ["-lpthread", "-ldl"]
        }, {
          "sources": ["src/unsupported.c"],
          "defines": ["NAPI_VERSION=8", "UNSUPPORTED_METHOD=start"]
        }]
      ]
    }
  ]
}
