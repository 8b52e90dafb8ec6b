import { Module } from '@nestjs/common';

/** The simulated identity service. For now only its catalogue; the order engine comes with PSD2 auth. */
@Module({})
export class EidModule {}
