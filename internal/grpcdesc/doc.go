// Package grpcdesc finds the gRPC methods a client may call: it compiles
// .proto files at run time (protocompile), reads protosets (serialized
// FileDescriptorSets) and asks a server through the reflection protocol,
// and indexes the methods of the resulting descriptors by their full name,
// "/package.Service/Method". It knows nothing of JavaScript.
package grpcdesc
