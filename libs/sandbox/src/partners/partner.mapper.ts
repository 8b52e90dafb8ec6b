import type { IssuedPartner } from '@app/directory';
import { PartnerCreatedDto } from './partner.dto';

export const toPartnerCreated = (partner: IssuedPartner): PartnerCreatedDto => ({
  partner_id: partner.id,
  name: partner.name,
  api_key: partner.apiKey,
});
