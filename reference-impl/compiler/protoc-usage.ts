// The text of `touchstone protoc --help` (and of no arguments at all, as protoc does).
// It lists what this driver supports, not everything protoc does.

export const PROTOC_USAGE = `Usage: touchstone protoc [OPTION] PROTO_FILES
Parse PROTO_FILES and run code-generator plugins on them, applying their output like
protoc 3.21 does (the reference compiler side of touchstone; no built-in generators).
  -IPATH, --proto_path=PATH   Directory in which to search for imports.  May be
                              given several times (or as a ':'-separated list);
                              searched in order.  Default: the current directory,
                              unless --descriptor_set_in is given.
  --descriptor_set_in=FILES   ':'-separated FileDescriptorSet files to take
                              PROTO_FILES (and their imports) from; the first
                              occurrence of a file name wins.
  --plugin=EXECUTABLE         A plugin executable; protoc-gen-NAME=PATH maps a
                              name to a path, a bare PATH is named after its
                              basename.  Unregistered plugins are searched in PATH.
  --NAME_out=[PARAMS:]DIR     Run protoc-gen-NAME, writing into DIR (a directory
                              that must exist, or a .zip/.jar/.srcjar archive).
  --NAME_opt=PARAM            Append PARAM to every --NAME_out's parameter.
  --version                   Show version info and exit.
  -h, --help                  Show this text and exit.
  @<filename>                 Read options and filenames from file, one per line.
touchstone only:
  --plugin_timeout=SECONDS    Kill a plugin that runs longer (default 60).
  --plugin_output_limit=BYTES Kill a plugin that writes more to stdout
                              (default 268435456, 256 MiB).
  --compiler_version=X.Y.Z[-SUFFIX]
                              The compiler_version sent to plugins (default:
                              touchstone's own version, suffix "touchstone").
  --fault=NAME                Switch on a built-in deviation from the plugin
                              protocol (repeatable), for touchstone's kill
                              matrix; never for real use.
Accepted without effect (touchstone has no warnings to make fatal, one error format):
  --experimental_allow_proto3_optional, --fatal_warnings, --error_format=gcc
Examples:
  touchstone protoc -Iproto --es_out=gen --plugin=protoc-gen-es=./node_modules/.bin/protoc-gen-es proto/a.proto
  touchstone protoc --descriptor_set_in=set.pb --touchstone_out=out a.proto
`;
