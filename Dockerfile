# The sandbox API. Build: docker build -t bank-api-sandbox .  (docker-compose.yml does this for you)
# Node 24 (LTS, maintained until April 2028): the runtime CI tests in full (.ci/run).
ARG NODE_IMAGE=node:24-bookworm-slim
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM ${NODE_IMAGE}
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# The young generation capped at 8 MB a semi-space, as `npm start` runs it (README: Benchmarks, RSS).
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=50", "dist/apps/api/src/main.js"]
