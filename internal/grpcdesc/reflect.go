package grpcdesc

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// reflectionService is the service Reflect skips: it describes itself.
const reflectionService = "grpc.reflection.v1.ServerReflection"

// Reflect asks the server of conn for the descriptors of every service it
// lists, through the reflection protocol (grpc.reflection.v1), with the
// files they import. ctx bounds the exchange and carries its metadata.
func Reflect(ctx context.Context, conn grpc.ClientConnInterface) (*protoregistry.Files, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := rpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
	if err != nil {
		return nil, fmt.Errorf("reflection: %w", err)
	}
	r := reflector{stream: stream, files: map[string]*descriptorpb.FileDescriptorProto{}}
	if err := r.collect(); err != nil {
		return nil, fmt.Errorf("reflection: %w", err)
	}
	_ = stream.CloseSend()
	set := &descriptorpb.FileDescriptorSet{}
	for _, f := range r.files {
		set.File = append(set.File, f)
	}
	return FileSet(set)
}

// reflector holds one reflection exchange and the files it received.
type reflector struct {
	stream grpc.BidiStreamingClient[rpb.ServerReflectionRequest, rpb.ServerReflectionResponse]
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
		if s.GetName() == reflectionService || s.GetName() == "grpc.reflection.v1alpha.ServerReflection" {
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

// ask sends req and returns its answer; an error answer is an error.
func (r *reflector) ask(req *rpb.ServerReflectionRequest) (*rpb.ServerReflectionResponse, error) {
	if err := r.stream.Send(req); err != nil {
		return nil, err
	}
	resp, err := r.stream.Recv()
	if err != nil {
		return nil, err
	}
	if e := resp.GetErrorResponse(); e != nil {
		return nil, errors.New(e.GetErrorMessage())
	}
	return resp, nil
}
