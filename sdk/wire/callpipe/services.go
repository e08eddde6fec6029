package callpipe

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Services are the host services a Client answers on the pipe. It is a
// grpc.ServiceRegistrar, so the generated Register…Server functions fill
// it exactly as they fill the gRPC server on the broker, and the handlers
// are the generated ones: the same service code runs whichever way a
// plugin reaches it. Only unary methods are served.
type Services struct {
	methods map[string]serviceMethod
}

type serviceMethod struct {
	impl    any
	handler grpc.MethodHandler
}

// NewServices returns an empty set of services.
func NewServices() *Services {
	return &Services{methods: map[string]serviceMethod{}}
}

// RegisterService implements grpc.ServiceRegistrar.
func (s *Services) RegisterService(desc *grpc.ServiceDesc, impl any) {
	for _, m := range desc.Methods {
		s.methods["/"+desc.ServiceName+"/"+m.MethodName] = serviceMethod{impl: impl, handler: m.Handler}
	}
}

var _ grpc.ServiceRegistrar = (*Services)(nil)

// encodeHostCall is a KindHostCall payload: the method name, then the
// request.
func encodeHostCall(method string, req []byte) ([]byte, error) {
	if len(method) > 0xffff {
		return nil, fmt.Errorf("method name of %d bytes", len(method))
	}
	b := make([]byte, 2, 2+len(method)+len(req))
	binary.BigEndian.PutUint16(b, uint16(len(method)))
	b = append(b, method...)
	return append(b, req...), nil
}

// decodeHostCall splits a KindHostCall payload.
func decodeHostCall(payload []byte) (method string, req []byte, err error) {
	if len(payload) < 2 {
		return "", nil, fmt.Errorf("a host call of %d bytes has no method name", len(payload))
	}
	n := int(binary.BigEndian.Uint16(payload))
	if len(payload) < 2+n {
		return "", nil, fmt.Errorf("a host call's method name is cut short")
	}
	return string(payload[2 : 2+n]), payload[2+n:], nil
}

// serveHost runs one host call from the plugin and sends the answer,
// unless the plugin gave up on it (ctx) first.
func (c *Client) serveHost(ctx context.Context, id uint64, payload []byte) {
	defer c.served.finish(id)
	reply, err := c.runHost(ctx, payload)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		msg := status.Convert(err).Message()
		_ = c.w.write(KindHostFail, id, []byte(strings.ToValidUTF8(msg, "\uFFFD")))
		return
	}
	_ = c.w.write(KindHostReply, id, reply)
}

func (c *Client) runHost(ctx context.Context, payload []byte) ([]byte, error) {
	method, req, err := decodeHostCall(payload)
	if err != nil {
		return nil, err
	}
	m, ok := c.services.methods[method]
	if !ok {
		return nil, fmt.Errorf("the host serves no method %q on the call pipe", method)
	}
	dec := func(v any) error {
		msg, ok := v.(proto.Message)
		if !ok {
			return fmt.Errorf("%T is not a protobuf message", v)
		}
		return proto.Unmarshal(req, msg)
	}
	out, err := m.handler(m.impl, ctx, dec, nil)
	if err != nil {
		return nil, err
	}
	msg, ok := out.(proto.Message)
	if !ok {
		return nil, fmt.Errorf("%s answered with %T, not a protobuf message", method, out)
	}
	return proto.Marshal(msg)
}
