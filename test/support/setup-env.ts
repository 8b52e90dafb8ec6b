import 'reflect-metadata';

// Style §4: tests run in UTC, so nothing passes by accident of the machine's time zone.
process.env.TZ = 'UTC';
