# touchstone in a container: the CLI built from this folder, with Debian's protoc 3.21 (a real
# compiler to judge: `touchstone compiler --compiler protoc`) and chromium (to render a report
# headless in the image: `chromium --headless --no-sandbox --screenshot reports/x/report.html`).
#
#   docker build -t touchstone .
#   docker run --rm touchstone run                      # every suite against the embedded reference
#   docker run --rm --user "$(id -u)" -v "$PWD:/work" touchstone \
#     run --target http://host.docker.internal:8080 --tokens tokens.yaml   # reports land in ./reports
#
# The folder the command runs in is /work: mount your project there for its tokens file, config
# file (touchstone.config.*) and reports.
FROM node:20-slim

RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium protobuf-compiler \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/touchstone
# The dependencies first, so that a change of the sources alone reuses this layer.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# The build (dist/, what `npm ci` runs as the prepare step) needs the development dependencies;
# the image keeps only what the commands run.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

WORKDIR /work
# Not root: the image runs other people's implementations' answers through its parsers.
USER node
ENTRYPOINT ["node", "/opt/touchstone/bin/touchstone.js"]
CMD ["--help"]
