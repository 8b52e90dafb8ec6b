export { EnterpriseModule } from './enterprise.module';
export { EnterpriseService } from './enterprise.service';
