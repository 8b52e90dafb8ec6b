import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { configureHttp, DataDirLocked, InvalidConfiguration, SandboxConfig, validateEnvironment } from '@app/common';
import { AppModule } from './app.module';
import { listenTls } from './strict-mode/tls-listener';

async function bootstrap(): Promise<void> {
  // Refuse a bad environment before Nest starts, with one line naming every bad variable.
  validateEnvironment(process.env);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ env: process.env }), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  configureHttp(app);
  app.enableShutdownHooks();
  const config = app.get(SandboxConfig);
  await app.listen(config.port);
  // Strict mode (contract §16): the same app over HTTPS with client certificates, beside the plain port.
  if (config.tlsPort !== undefined) {
    const tls = await listenTls(app, config.tlsPort);
    // Shut down with the plain listener (enableShutdownHooks closes that one).
    app.getHttpServer().once('close', () => void tls.close());
  }
}

bootstrap().catch((error: unknown) => {
  // Before the logger exists, standard error is the only place to say why start-up stopped.
  const known = error instanceof InvalidConfiguration || error instanceof DataDirLocked;
  process.stderr.write(`${known ? error.message : (error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
