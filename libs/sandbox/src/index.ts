export { SandboxModule } from './sandbox.module';
export { SeedService } from './seed/seed.service';
export { SeedFixtureDto } from './seed/seed.dto';
export { DemoSeeder, DEMO_PARTNER_KEY_FILE } from './seed/demo-seeder';
