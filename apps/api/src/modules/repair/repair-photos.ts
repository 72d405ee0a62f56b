import { repairPhotoAttachments } from '@inventory/contract';
import type { AttachmentStore } from '../../toolkit/attachments.js';

/** Photos of a ticket's device, taken by its technician during the repair. */
export const repairPhotoStore: AttachmentStore = {
  contract: repairPhotoAttachments,
  table: 'repair_tickets',
};
