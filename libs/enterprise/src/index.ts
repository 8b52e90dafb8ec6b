export { EnterpriseModule } from './enterprise.module';
