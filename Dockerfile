# syntax=docker/dockerfile:1
# Build stage: install everything, compile TypeScript.
# Node 24 (an LTS line); package.json asks for 20.19 at least (require(esm), TypeORM's engines).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The `prepare` script (scripts/dist.mjs) runs with npm ci; it builds nothing until the sources are here.
COPY scripts/dist.mjs ./scripts/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY migrations ./migrations
COPY config ./config
COPY web ./web
COPY scripts/build-web.mjs ./scripts/
# Compiles (type-checked) and seeds dist/pglite-template, the migrated embedded database a first start copies.
RUN npm run build && npm prune --omit=dev

# Runtime stage: production dependencies, compiled code and the catalog, as a non-root user.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/config ./config
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/health').then(r=>process.exit(r.status<500?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["node", "--initial-old-space-size=300", "dist/bundle/server/main.js"]
