# syntax=docker/dockerfile:1
# Base images are pinned by version (bump them on purpose, with the tests):
# the same inputs build the same executable.

# Build: npm installs exactly the committed lockfile (package-lock.json is the
# project's lockfile; Bun itself comes from it, pinned), then Bun compiles the
# SPA and the server into one executable.
FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx bun run build

# Run: only the executable, on a slim base, as a non-root user (uid 10001, gid 10001: a bind-mounted
# data folder is handed over with `chown -R 10001:10001 <folder>`; the server says so when it cannot write).
FROM debian:12.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 unisson \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin unisson \
    && mkdir -p /data && chown 10001:10001 /data
COPY --from=build /app/dist/unisson /usr/local/bin/unisson
USER unisson
WORKDIR /data
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=3000
VOLUME ["/data"]
EXPOSE 3000
# The server gives up a write blocked by another process's lock after 1 s (503), so it answers well within 5 s.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["unisson", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["unisson"]
CMD ["serve"]
