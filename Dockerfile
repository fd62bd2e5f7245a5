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
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# `npm run migrate` in the image runs the built migrator (no development dependency needed).
COPY --from=build /app/scripts/migrate.mjs ./scripts/migrate.mjs
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4000
# `npm run serve` without npm in between: signals reach the shop directly and it stops in order.
# A small young generation keeps the resident memory low under load (see `npm run bench -- reads`).
CMD ["node", "--max-semi-space-size=2", "dist/gateway/src/main.js"]
