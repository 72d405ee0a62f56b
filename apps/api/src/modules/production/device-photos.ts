import { devicePhotoAttachments, STATION_ACCESS, canAccess } from '@inventory/contract';
import { accessSubjectOf } from '../../http/principal.js';
import type { AttachmentStore } from '../../toolkit/attachments.js';

/**
 * Photos of a device at the grading station (grades C and D need one): a worker reaches the
 * devices a leader handed to them, leaders and managers every device that went into production.
 */
export const devicePhotoStore: AttachmentStore = {
  contract: devicePhotoAttachments,
  table: 'devices',
  scope: (asker) =>
    canAccess(accessSubjectOf(asker), STATION_ACCESS.productTeamLeader)
      ? ['EXISTS (SELECT 1 FROM production_assignments pa WHERE pa.device_id = devices.id)']
      : [
          `EXISTS (SELECT 1 FROM production_assignments pa
                   WHERE pa.device_id = devices.id AND pa.worker_id = ?)`,
          asker.userId,
        ],
};
