import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { type ParticipantSigned, SigningCompletions, SigningModule } from '@app/signing';

/**
 * A stand-in for a process that owns signings (as mortgage loan applications do): registers as
 * `test_process` and records what the signing seam tells it. Mount with createTestApp({ imports }).
 */
@Injectable()
export class RecordingProcess implements OnModuleInit {
  readonly signed: ParticipantSigned[] = [];
  constructor(private readonly completions: SigningCompletions) {}
  onModuleInit(): void {
    this.completions.onParticipantSigned('test_process', (event) => {
      this.signed.push(event);
      return Promise.resolve();
    });
  }
}

@Module({ imports: [SigningModule], providers: [RecordingProcess] })
export class RecordingProcessModule {}
