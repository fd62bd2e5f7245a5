# Art & Song Cards: built once, run as many processes as needed (see README "Production").

# ---- build: every dependency, then `npm run build` into dist/ ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- runtime: production dependencies and the build only ----
FROM node:24-bookworm-slim
# Two malloc arenas: glibc's default (one per thread that allocates) keeps the memory V8's helper
# threads and zlib once used; two measured about 40 MiB less resident memory under page load.
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=4000 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# `npm run migrate`, `npm run backup` and `npm run restore` in the image run the built tools (no
# development dependency needed).
COPY --from=build /app/scripts/cli.mjs ./scripts/cli.mjs
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4000
# `npm run serve` without npm in between (the shell execs node): signals reach the shop directly and
# it stops in order. A small young generation, and a heap that grows by half its live size before a
# full collection (instead of up to four times), keep the resident memory low under load (see
# `npm run bench -- pages`), a worker's too (`npm run bench -- delivery`).
# Finished Maglev compiles are freed on the main thread as they are installed (README, Memory).
CMD ["sh", "-c", "exec node --max-semi-space-size=${NODE_SEMI_SPACE_MB:-2} --heap-growing-percent=50 --no-maglev-destroy-on-background dist/gateway/src/main.js"]
