package grpcdesc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// reflectionServices are the reflection protocol's versions, newest
// first: v1alpha's messages are v1's on the wire, only the service's name
// differs. Reflect skips them in the services a server lists.
var reflectionServices = []string{"grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"}

// Reflect asks the server of conn for the descriptors of every service it
// lists, through the reflection protocol (grpc.reflection.v1, or v1alpha
// when the server has only that one), with the files they import. ctx
// bounds the exchange and carries its metadata.
func Reflect(ctx context.Context, conn grpc.ClientConnInterface) (*protoregistry.Files, error) {
	var files map[string]*descriptorpb.FileDescriptorProto
	var err error
	for _, svc := range reflectionServices {
		files, err = reflectWith(ctx, conn, svc)
		if status.Code(err) != codes.Unimplemented {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reflection: %w", err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	for _, f := range files {
		set.File = append(set.File, f)
	}
	return FileSet(set)
}

// reflectWith runs the exchange with the reflection service svc.
func reflectWith(ctx context.Context, conn grpc.ClientConnInterface, svc string) (map[string]*descriptorpb.FileDescriptorProto, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	desc := &grpc.StreamDesc{StreamName: "ServerReflectionInfo", ServerStreams: true, ClientStreams: true}
	stream, err := conn.NewStream(ctx, desc, "/"+svc+"/ServerReflectionInfo")
	if err != nil {
		return nil, err
	}
	r := reflector{stream: stream, files: map[string]*descriptorpb.FileDescriptorProto{}}
	if err := r.collect(); err != nil {
		return nil, err
	}
	_ = stream.CloseSend()
	return r.files, nil
}

// reflector holds one reflection exchange and the files it received.
type reflector struct {
	stream grpc.ClientStream
	files  map[string]*descriptorpb.FileDescriptorProto
}

// collect lists the services, asks for the file of each, then for every
// file one of them imports that was not received.
func (r *reflector) collect() error {
	resp, err := r.ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{}})
	if err != nil {
		return err
	}
	for _, s := range resp.GetListServicesResponse().GetService() {
		if slices.Contains(reflectionServices, s.GetName()) {
			continue
		}
		if err := r.fetch(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: s.GetName()}}); err != nil {
			return fmt.Errorf("service %s: %w", s.GetName(), err)
		}
	}
	for {
		missing := r.missing()
		if missing == "" {
			return nil
		}
		if err := r.fetch(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileByFilename{FileByFilename: missing}}); err != nil {
			return fmt.Errorf("file %s: %w", missing, err)
		}
		if r.files[missing] == nil {
			return fmt.Errorf("the server did not send %s", missing)
		}
	}
}

// missing returns an import no received file satisfies, or "". The
// well-known files are not asked for: they are built in.
func (r *reflector) missing() string {
	for _, f := range r.files {
		for _, dep := range f.Dependency {
			if r.files[dep] != nil {
				continue
			}
			if _, err := protoregistry.GlobalFiles.FindFileByPath(dep); err != nil {
				return dep
			}
		}
	}
	return ""
}

// fetch sends req and keeps the files of the answer.
func (r *reflector) fetch(req *rpb.ServerReflectionRequest) error {
	resp, err := r.ask(req)
	if err != nil {
		return err
	}
	for _, b := range resp.GetFileDescriptorResponse().GetFileDescriptorProto() {
		f := new(descriptorpb.FileDescriptorProto)
		if err := proto.Unmarshal(b, f); err != nil {
			return fmt.Errorf("bad file descriptor: %w", err)
		}
		r.files[f.GetName()] = f
	}
	return nil
}

// ask sends req and returns its answer; an error answer is an error. A
// send that finds the stream already ended by the server (io.EOF: a
// server without this reflection version answers Unimplemented at once)
// returns the status RecvMsg reports, so Reflect can try the next version.
func (r *reflector) ask(req *rpb.ServerReflectionRequest) (*rpb.ServerReflectionResponse, error) {
	resp := new(rpb.ServerReflectionResponse)
	if err := r.stream.SendMsg(req); err != nil {
		if errors.Is(err, io.EOF) {
			if rerr := r.stream.RecvMsg(resp); rerr != nil {
				return nil, rerr
			}
		}
		return nil, err
	}
	if err := r.stream.RecvMsg(resp); err != nil {
		return nil, err
	}
	if e := resp.GetErrorResponse(); e != nil {
		return nil, errors.New(e.GetErrorMessage())
	}
	return resp, nil
}
