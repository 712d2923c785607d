# The container of `cathedral serve` (docs/releasing.md, "The container"): the static musl binary
# that .ci/release-build makes, on a distroless base, as a user without privileges. The release
# workflow builds and publishes it; here:
#
#   docker build --build-arg CATHEDRAL_COMMIT=$(git rev-parse HEAD) -t cathedral .
#   docker run --rm -p 8080:8080 cathedral          # then open http://localhost:8080/
#
# Checked by hadolint (.ci/release-lint). x86_64 only: an aarch64 image would build the binary
# for that target the same way.

FROM rust:1.95-bookworm AS build
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends musl-tools python3 \
    && rm -rf /var/lib/apt/lists/* \
    && rustup target add x86_64-unknown-linux-musl
WORKDIR /src
COPY . .
# The build context has no .git: the workflow passes the commit for `cathedral --version`.
ARG CATHEDRAL_COMMIT=unknown
ENV CATHEDRAL_COMMIT=${CATHEDRAL_COMMIT}
RUN .ci/release-build --target x86_64-unknown-linux-musl --no-site --out /dist \
    && tar -xzf /dist/cathedral-*-x86_64-unknown-linux-musl.tar.gz -C /dist --strip-components=1

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /dist/cathedral /usr/local/bin/cathedral
USER nonroot
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["/usr/local/bin/cathedral", "health", "--port", "8080"]
ENTRYPOINT ["/usr/local/bin/cathedral", "serve", "--bind", "0.0.0.0", "--port", "8080"]
