# The runner image: usefullatency installed both as itself and as k6, so
# k6-operator's runner, initializer and starter jobs use it unchanged (see
# docs/distributed.md and deploy/k6-operator/).
#
#   docker build -t usefullatency:dev .
#   docker build --build-arg VERSION=$(git describe --tags --always) -t usefullatency:dev .

FROM golang:1.26-bookworm AS build
# go.mod may ask for a newer patch release than the image has.
ENV GOTOOLCHAIN=auto CGO_ENABLED=0
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/usefullatency ./cmd/usefullatency

# The initializer job runs `sh -c` with mkdir, cat, grep, dirname and
# `command -v`: busybox in Alpine has them all. CA certificates are for
# HTTPS systems under test and remote modules.
FROM alpine:3.22
RUN apk add --no-cache ca-certificates \
 && adduser -D -u 12345 -h /home/k6 k6
COPY --from=build /out/usefullatency /usr/bin/usefullatency
RUN ln -s /usr/bin/usefullatency /usr/bin/k6
USER 12345
WORKDIR /home/k6
# k6's REST API, when a run is given --address 0.0.0.0:6565 (the operator does).
EXPOSE 6565
ENTRYPOINT ["k6"]
CMD ["help"]
