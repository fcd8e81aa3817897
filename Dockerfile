# syntax=docker/dockerfile:1
# Build: the Bun image compiles the SPA and the server into one executable.
FROM oven/bun:1 AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN bun install
COPY . .
RUN bun run build

# Run: only the executable, on a slim base, as a non-root user.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin unisson \
    && mkdir -p /data && chown unisson /data
COPY --from=build /app/dist/unisson /usr/local/bin/unisson
USER unisson
WORKDIR /data
# Bun's HTTP client runs 256 requests at once by default; final processing fans out to six models.
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=3000 BUN_CONFIG_MAX_HTTP_REQUESTS=1024
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["unisson", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["unisson"]
CMD ["serve"]
