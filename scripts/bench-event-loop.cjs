// Preloaded into the service by `npm run bench` (node --require), never by the service itself: reports
// the service process's event-loop delay (perf_hooks.monitorEventLoopDelay) to the bench over the IPC
// channel the bench opened, so the service exposes nothing new. Each report resets the histogram.
'use strict';
const { monitorEventLoopDelay } = require('node:perf_hooks');

if (typeof process.send === 'function') {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  process.on('message', (message) => {
    if (message !== 'event-loop-delay') return;
    const ms = (ns) => ns / 1e6;
    process.send({ eventLoopDelay: { max: ms(histogram.max), p99: ms(histogram.percentile(99)), mean: ms(histogram.mean) } });
    histogram.reset();
  });
  // The channel never keeps the service alive.
  process.channel?.unref();
}
