// Package k6grpc is the k6/net/grpc JavaScript module: a gRPC client that
// loads .proto files, protosets or a server's reflection, connects through
// the VU's network stack (hosts, blockHostnames, blacklistIPs, dns, the
// TLS options), calls unary methods (invoke, asyncInvoke) and streams
// (Stream, whose events run on the VU's event loop), with k6's grpc_*
// metrics. Messages go between JavaScript and protobuf through proto3's
// JSON mapping. The descriptors are internal/grpcdesc's.
package k6grpc

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/net/grpc"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newInstance) }
