# A small image holding the fieldnotes binary, for CI systems that run jobs in containers
# (GitLab CI, Woodpecker, Drone), and for `docker run`:
#
#   docker build -t fieldnotes .
#   docker run --rm -v "$PWD:/site" fieldnotes               # fieldnotes lint
#   docker run --rm -v "$PWD:/site" fieldnotes fieldnotes lint --format concise
#
# Stage 1 builds a static binary against musl. Stage 2 is Alpine with git rather than
# distroless: `lint --changed-since` and `sources verify` run git, and GitLab CI runs its job
# script with the image's shell, which distroless lacks. No ENTRYPOINT, for the same reason.
# Not built by this repository's CI, which has no Docker engine.
FROM rust:1-alpine AS build
RUN apk add --no-cache musl-dev
WORKDIR /src
COPY . .
RUN cargo build --release --locked && cp target/release/fieldnotes /fieldnotes

FROM alpine:3
RUN apk add --no-cache git \
    && git config --system --add safe.directory '*' \
    && adduser -D -u 10001 fieldnotes
COPY --from=build /fieldnotes /usr/local/bin/fieldnotes
USER fieldnotes
WORKDIR /site
CMD ["fieldnotes", "lint"]
